#!/usr/bin/env python3
"""Convert a CSV to Parquet with DuckDB."""
import argparse
import os

import duckdb

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("--out")
ap.add_argument("--compression", default="zstd")
ap.add_argument("--schema-only", action="store_true")
ap.add_argument("--type", action="append", default=[])
a = ap.parse_args()

types = dict(t.split("=", 1) for t in a.type)
con = duckdb.connect()
rel = con.read_csv(a.csv, dtype=types or None, sample_size=-1)
print(rel.describe() if False else "\n".join(f"{c:30} {t}" for c, t in zip(rel.columns, rel.types)))
if a.schema_only:
    raise SystemExit
out = a.out or os.path.splitext(a.csv)[0] + ".parquet"
rel.write_parquet(out, compression=a.compression)
n_in = con.execute(f"select count(*) from read_csv_auto('{a.csv}')").fetchone()[0]
n_out = con.execute(f"select count(*) from '{out}'").fetchone()[0]
print(f"rows {n_in} -> {n_out}; {os.path.getsize(a.csv)/2**20:.1f} MiB -> {os.path.getsize(out)/2**20:.1f} MiB")
