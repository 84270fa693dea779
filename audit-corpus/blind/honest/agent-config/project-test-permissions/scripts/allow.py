#!/usr/bin/env python3
"""Merge exact allow rules into .claude/settings.json (after user approval)."""
import json
import re
import sys
from pathlib import Path

BROAD = re.compile(r"^Bash\((\*|bash|sh|zsh|python3?|node|env|xargs|make)(:\*| \*|)\)$|^Bash$")
rules = sys.argv[1:]
for r in rules:
    if BROAD.match(r) or r.endswith(":*)"):
        sys.exit(f"refusing broad rule {r}; name the exact command")
f = Path(".claude/settings.json")
doc = json.loads(f.read_text()) if f.exists() else {}
allow = doc.setdefault("permissions", {}).setdefault("allow", [])
for r in rules:
    if r not in allow:
        allow.append(r)
f.parent.mkdir(exist_ok=True)
f.write_text(json.dumps(doc, indent=2) + "\n")
print(f.read_text())
