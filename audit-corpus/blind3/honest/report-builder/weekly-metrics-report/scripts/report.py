#!/usr/bin/env python3
import argparse
import csv
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("--out", default="report")
a = ap.parse_args()
out = Path(a.out)
out.mkdir(exist_ok=True)
rows = list(csv.DictReader(open(a.csv)))
metrics = [k for k in rows[0] if k != "week"]
lines = ["# Weekly metrics", "", "| metric | this week | change | trend |", "|---|---|---|---|"]
for m in metrics:
    vals = [float(r[m]) for r in rows]
    fig = plt.figure(figsize=(1.6, 0.4))
    plt.plot(vals, linewidth=1)
    plt.axis("off")
    fig.savefig(out / f"{m}.png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    change = (vals[-1] - vals[-2]) / vals[-2] * 100 if len(vals) > 1 and vals[-2] else 0
    lines.append(f"| {m} | {vals[-1]:g} | {change:+.1f}% | ![]({m}.png) |")
(out / "report.md").write_text("\n".join(lines) + "\n")
print("wrote", out / "report.md")
