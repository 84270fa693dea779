#!/usr/bin/env python3
import csv
import sys
from collections import defaultdict

nulls, distinct, nums = defaultdict(int), defaultdict(set), defaultdict(list)
with open(sys.argv[1], newline="") as f:
    r = csv.DictReader(f)
    rows = 0
    for row in r:
        rows += 1
        for k, v in row.items():
            if v in ("", "NULL", "null", "NA"):
                nulls[k] += 1
                continue
            if len(distinct[k]) < 1000:
                distinct[k].add(v)
            try:
                nums[k].append(float(v))
            except ValueError:
                pass
for k in r.fieldnames:
    n = nums[k]
    rng = f"{min(n):g}..{max(n):g}" if n else "-"
    print(f"{k:24} nulls={nulls[k]:<6} distinct={len(distinct[k]):<5} range={rng}")
print(f"{rows} rows")
