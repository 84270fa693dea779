#!/usr/bin/env python3
import json
from pathlib import Path

root = next((p for p in (Path("locales"), Path("i18n")) if p.is_dir()), None)
if root is None:
    raise SystemExit("no locales/ or i18n/ folder")
src = json.loads((root / "en.json").read_text())
sv_path = root / "sv.json"
sv = json.loads(sv_path.read_text()) if sv_path.exists() else {}
missing = {k: v for k, v in src.items() if k not in sv}
for k, v in missing.items():
    print(f"{k}\t{v}")
print(f"# {len(missing)} strängar saknas")
