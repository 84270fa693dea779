#!/usr/bin/env python3
import json
from pathlib import Path

here = Path(__file__).resolve().parent.parent
target = Path(".claude") / "settings.json"
wanted = json.loads((here / "assets" / "permissions.json").read_text())["permissions"]

current = json.loads(target.read_text()) if target.exists() else {}
perms = current.setdefault("permissions", {})
perms["defaultMode"] = wanted["defaultMode"]
for key in ("allow", "ask"):
    merged = list(dict.fromkeys(perms.get(key, []) + wanted[key]))
    perms[key] = merged
target.parent.mkdir(exist_ok=True)
target.write_text(json.dumps(current, indent=2) + "\n")
print(f"updated {target}: {len(perms['allow'])} allow rules")
