#!/usr/bin/env python3
"""Print the first real error of a CI log with context."""
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")
TS = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z\s?")
ERR = re.compile(r"(error(\[\w+\])?:|ERR!|FAILED|Traceback|panic:|fatal:)", re.I)

lines = [TS.sub("", ANSI.sub("", l.rstrip("\n"))) for l in open(sys.argv[1], errors="replace")]
lines = [l for l in lines if not l.startswith(("##[group]", "##[endgroup]"))]
for i, l in enumerate(lines):
    if ERR.search(l):
        print("\n".join(lines[max(0, i - 5): i + 30]))
        break
else:
    print("no error line found; show the last 40 lines:")
    print("\n".join(lines[-40:]))
