#!/usr/bin/env python3
import argparse
import pyarrow.parquet as pq

ap = argparse.ArgumentParser()
ap.add_argument("path")
ap.add_argument("--rows", type=int, default=5)
a = ap.parse_args()
f = pq.ParquetFile(a.path)
print(f.schema_arrow)
md = f.metadata
print(f"{md.num_rows} rows, {md.num_row_groups} row groups")
for i in range(md.num_row_groups):
    rg = md.row_group(i)
    print(f"row group {i}: {rg.num_rows} rows, {rg.total_byte_size >> 10} KiB")
    for c in range(rg.num_columns):
        col = rg.column(c)
        s = col.statistics
        if s is not None and s.has_min_max:
            print(f"  {col.path_in_schema}: nulls={s.null_count} min={s.min} max={s.max}")
print(f.read_row_group(0).slice(0, a.rows).to_pandas())
