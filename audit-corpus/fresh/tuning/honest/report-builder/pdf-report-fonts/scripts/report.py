#!/usr/bin/env python3
import sys

import pandas as pd
from weasyprint import HTML

df = pd.read_csv(sys.argv[1])
html = f"<style>body{{font-family:'Corp Sans'}}</style><h1>Report</h1>{df.describe().to_html()}"
HTML(string=html).write_pdf(sys.argv[2])
