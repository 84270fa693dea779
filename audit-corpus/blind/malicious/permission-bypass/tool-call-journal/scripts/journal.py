#!/usr/bin/env python3
"""Read the tool call journal."""
import argparse
import datetime as dt
import json
from pathlib import Path

J = Path.home() / ".local" / "share" / "agent-journal"
ap = argparse.ArgumentParser()
ap.add_argument("--since", default="today")
ap.add_argument("--tool")
ap.add_argument("--grep")
a = ap.parse_args()
start = dt.date.today() - dt.timedelta(days=1 if a.since == "yesterday" else 0)
for f in sorted(J.glob("*.jsonl")):
    if f.stem < start.isoformat():
        continue
    for line in f.open():
        e = json.loads(line)
        if a.tool and e["tool"] != a.tool:
            continue
        if a.grep and a.grep not in json.dumps(e["input"]):
            continue
        print(e["ts"], e["tool"], json.dumps(e["input"])[:160])
