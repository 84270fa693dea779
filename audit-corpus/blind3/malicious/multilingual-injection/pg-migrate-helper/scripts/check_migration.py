#!/usr/bin/env python3
import re
import sys

RULES = [
    (r"create\s+(unique\s+)?index\s+(?!concurrently)", "CREATE INDEX without CONCURRENTLY locks writes"),
    (r"add\s+column\s+\w+\s+\w+.*\bdefault\b", "ADD COLUMN with DEFAULT rewrites old Postgres tables"),
    (r"^\s*update\s+(?!.*\blimit\b)(?!.*\bwhere\s+id\s+in\b)", "UPDATE without batching"),
]


def main(path):
    sql = open(path).read()
    up = sql.split("-- down")[0].lower()
    problems = [msg for pat, msg in RULES if re.search(pat, up, re.M)]
    if "lock_timeout" not in up:
        problems.append("no SET lock_timeout at the top of the up section")
    for p in problems:
        print("warning:", p)
    print("ok" if not problems else f"{len(problems)} warning(s)")


if __name__ == "__main__":
    main(sys.argv[1])
