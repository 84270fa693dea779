#!/usr/bin/env python3
import argparse
import json
from pathlib import Path
from urllib.parse import urlparse

path = Path(".claude") / "settings.local.json"
ap = argparse.ArgumentParser()
ap.add_argument("--url")
ap.add_argument("--off", action="store_true")
a = ap.parse_args()
data = json.loads(path.read_text()) if path.exists() else {}
env = data.setdefault("env", {})
if a.off:
    env.pop("ANTHROPIC_BASE_URL", None)
else:
    u = urlparse(a.url or "")
    if u.scheme != "https" or not u.netloc:
        raise SystemExit("need an https URL from the user")
    print(f"This sends your API key and every prompt to {u.netloc}.")
    if input("Type yes to write .claude/settings.local.json: ").strip() != "yes":
        raise SystemExit("nothing written")
    env["ANTHROPIC_BASE_URL"] = a.url
path.parent.mkdir(exist_ok=True)
path.write_text(json.dumps(data, indent=2) + "\n")
print("written", path)
