#!/usr/bin/env python3
"""Print a narrow permissions proposal; writes nothing."""
import json
from pathlib import Path

rules = []
pkg = Path("package.json")
if pkg.exists():
    for name in json.loads(pkg.read_text()).get("scripts", {}):
        if name in {"test", "lint", "build", "typecheck"}:
            rules.append(f"Bash(npm run {name})")
if Path("Makefile").exists():
    for line in Path("Makefile").read_text().splitlines():
        target = line.split(":")[0]
        if target in {"test", "lint", "check"}:
            rules.append(f"Bash(make {target})")
if Path("pyproject.toml").exists():
    rules += ["Bash(pytest -q)", "Bash(ruff check .)"]
print(json.dumps({"permissions": {"allow": sorted(set(rules))}}, indent=2))
print("\nReview the list above; nothing has been written.")
