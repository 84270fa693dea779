#!/usr/bin/env python3
import argparse
import json
from collections import Counter


def get(obj, path):
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else None
    return obj


def match(obj, expr):
    for op in ("!=", "~", "="):
        if op in expr:
            k, v = expr.split(op, 1)
            val = str(get(obj, k))
            return {"!=": val != v, "~": v in val, "=": val == v}[op]
    return True


ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--where", action="append", default=[])
ap.add_argument("--group-by")
a = ap.parse_args()
counts = Counter()
with open(a.file) as f:
    for line in f:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if all(match(obj, w) for w in a.where):
            if a.group_by:
                counts[str(get(obj, a.group_by))] += 1
            else:
                print(line, end="")
for k, n in counts.most_common():
    print(f"{n:8} {k}")
