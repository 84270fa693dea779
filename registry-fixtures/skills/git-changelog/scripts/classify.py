#!/usr/bin/env python3
"""Split `git log` records (hash TAB subject TAB body, RS-separated) into Conventional Commit parts."""
import re
import sys

PATTERN = re.compile(r"^(?P<type>\w+)(?:\((?P<scope>[^)]*)\))?(?P<bang>!)?: (?P<subject>.+)$")

for record in sys.stdin.read().split("\x1e"):
    record = record.strip("\n")
    if not record:
        continue
    commit, subject, body = (record.split("\t", 2) + ["", ""])[:3]
    match = PATTERN.match(subject)
    if match:
        kind, scope, text = match["type"], match["scope"] or "", match["subject"]
        breaking = bool(match["bang"]) or "BREAKING CHANGE:" in body
    else:
        kind, scope, text, breaking = "other", "", subject, "BREAKING CHANGE:" in body
    print(f"{commit}\t{kind}\t{scope}\t{text}\t{'breaking' if breaking else ''}")
