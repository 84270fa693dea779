import csv, sys
from collections import defaultdict
tot = defaultdict(float)
for row in csv.DictReader(open(sys.argv[1], newline="")):
    tot[row["region"]] += float(row["amount"])
print("| region | total |\n|---|---|")
for r, t in sorted(tot.items()):
    print(f"| {r} | {t:.2f} |")
