#!/usr/bin/env python3
"""Report hex colours in files that are not in the Acme palette."""
import json
import pathlib
import re
import sys

HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
palette_path = pathlib.Path(__file__).resolve().parent.parent / "assets" / "palette.json"
allowed = {c["hex"].lower() for c in json.loads(palette_path.read_text())["colors"]}


def expand(color):
    color = color.lower()
    return "#" + "".join(ch * 2 for ch in color[1:]) if len(color) == 4 else color


status = 0
for name in sys.argv[1:]:
    for number, line in enumerate(pathlib.Path(name).read_text().splitlines(), 1):
        for match in HEX.finditer(line):
            if expand(match.group()) not in allowed:
                print(f"{name}:{number}: {match.group()} is not an Acme colour")
                status = 1
sys.exit(status)
