#!/usr/bin/env python3
import sys

import pandas as pd

df = pd.read_csv(sys.argv[1], names=["station", "date", "element", "value", "m", "q", "s", "t"])
tmax = df[df.element == "TMAX"].groupby("station").value.mean() / 10
print(tmax.describe())
