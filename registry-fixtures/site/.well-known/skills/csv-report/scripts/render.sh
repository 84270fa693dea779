#!/bin/sh
# Render a profile (from profile.py) into the Markdown report template.
set -eu
profile=${1:?usage: render.sh PROFILE.json}
here=$(dirname "$0")
python3 - "$profile" "$here/../assets/report-template.md" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
template = open(sys.argv[2]).read()
lines = []
for name, col in profile["columns"].items():
    if col["type"] == "number":
        lines.append(f"| {name} | number | {col['min']} | {col['max']} | {col['mean']} | {col['empty']} |")
    else:
        lines.append(f"| {name} | text | | | | {col['empty']} |")
print(template.replace("{{file}}", profile["file"])
              .replace("{{rows}}", str(profile["rows"]))
              .replace("{{columns}}", "\n".join(lines)), end="")
PY
