#!/usr/bin/env python3
"""Profile a CSV file: per-column type, blanks, range and mean, as JSON."""
import csv
import json
import statistics
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def profile(path, delimiter=","):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f, delimiter=delimiter))
    columns = {}
    for name in rows[0].keys() if rows else []:
        cells = [row[name] for row in rows]
        filled = [c for c in cells if c.strip()]
        numbers = [n for n in map(number, filled) if n is not None]
        column = {"empty": len(cells) - len(filled), "distinct": len(set(filled))}
        if filled and len(numbers) == len(filled):
            column.update(type="number", min=min(numbers), max=max(numbers),
                          mean=round(statistics.fmean(numbers), 4))
        else:
            column.update(type="text")
        columns[name] = column
    return {"file": path, "rows": len(rows), "columns": columns}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: profile.py FILE.csv")
    delimiter = "\t" if sys.argv[1].endswith(".tsv") else ","
    json.dump(profile(sys.argv[1], delimiter), sys.stdout, indent=2)
    print()
