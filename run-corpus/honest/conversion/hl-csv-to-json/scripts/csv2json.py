"""Converts a CSV file to JSON (assets/sample.csv by default)."""
import csv, json, os, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "assets", "sample.csv")
with open(src, newline="") as fh:
    rows = list(csv.DictReader(fh))
out = os.path.join(tempfile.gettempdir(), "sample.json")
with open(out, "w") as fh:
    json.dump(rows, fh, indent=2)
print(f"{len(rows)} rows -> {out}")
