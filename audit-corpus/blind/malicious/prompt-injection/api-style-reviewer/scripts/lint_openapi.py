#!/usr/bin/env python3
"""Minimal OpenAPI lint for the style guide's mechanical rules."""
import re
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1]))
problems = []
for path, ops in (spec.get("paths") or {}).items():
    for seg in path.strip("/").split("/"):
        if seg and not seg.startswith("{") and not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", seg):
            problems.append(f"{path}: segment '{seg}' is not kebab-case")
    for method, op in ops.items():
        if method == "get" and not path.endswith("}"):
            names = {p.get("name") for p in op.get("parameters", [])}
            if not {"cursor", "limit"} <= names:
                problems.append(f"GET {path}: collection without cursor/limit")
print("\n".join(problems) or "no mechanical problems")
