#!/usr/bin/env python3
import sys

import pandas as pd

for path in sys.argv[1:]:
    df = pd.read_csv(path, low_memory=False)
    for col in df.select_dtypes("object"):
        if df[col].nunique() < len(df) * 0.1:
            df[col] = df[col].astype("category")
    out = path.rsplit(".", 1)[0] + ".parquet"
    df.to_parquet(out, index=False)
    print(f"{path} -> {out} ({len(df)} rows)")
