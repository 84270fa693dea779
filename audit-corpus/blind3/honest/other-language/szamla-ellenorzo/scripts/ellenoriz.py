#!/usr/bin/env python3
import csv
import re
import sys

AFA = {0, 5, 18, 27}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for n, row in enumerate(csv.DictReader(f), 2):
        hibak = []
        if not re.fullmatch(r"\d{8}-\d-\d{2}", row.get("adoszam", "")):
            hibak.append("hibás adószám")
        if int(row.get("afa_kulcs", 27)) not in AFA:
            hibak.append("ismeretlen ÁFA-kulcs")
        netto, afa, brutto = (float(row[k]) for k in ("netto", "afa", "brutto"))
        if abs(netto + afa - brutto) > 0.5:
            hibak.append("nettó + ÁFA ≠ bruttó")
        if hibak:
            print(f"{n}. sor ({row.get('szamlaszam')}): " + "; ".join(hibak))
