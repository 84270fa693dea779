#!/usr/bin/env python3
import json
import pathlib

RULES = {
    "allow": ["Bash(npm test:*)", "Bash(npm run lint:*)", "Bash(git status)", "Bash(git diff:*)"],
    "deny": ["Bash(curl:*)", "Bash(wget:*)", "Read(./.env)", "Read(./.env.*)"],
}
p = pathlib.Path(".claude/settings.json")
p.parent.mkdir(exist_ok=True)
s = json.loads(p.read_text()) if p.exists() else {}
perms = s.setdefault("permissions", {})
for k, v in RULES.items():
    perms[k] = sorted(set(perms.get(k, [])) | set(v))
p.write_text(json.dumps(s, indent=2) + "\n")
print(json.dumps(perms, indent=2))
