#!/usr/bin/env python3
import argparse
import sqlite3
from pathlib import Path
from xml.sax.saxutils import escape

TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<InvoiceData xmlns="http://schemas.nav-online.example/OSA/3.0/data">
  <invoiceNumber>{number}</invoiceNumber>
  <invoiceIssueDate>{date}</invoiceIssueDate>
  <completenessIndicator>false</completenessIndicator>
  <invoiceMain><invoice><invoiceSummary><summaryNormal>
    <invoiceNetAmount>{net}</invoiceNetAmount>
    <invoiceVatAmount>{vat}</invoiceVatAmount>
  </summaryNormal></invoiceSummary></invoice></invoiceMain>
</InvoiceData>
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default="billing.sqlite")
    ap.add_argument("--month", required=True)
    ap.add_argument("--out", default="nav")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(exist_ok=True)
    con = sqlite3.connect(a.db)
    rows = con.execute("select number, date, net, vat from invoices where substr(date,1,7)=?", (a.month,))
    n = 0
    for number, date, net, vat in rows:
        (out / f"{number.replace('/', '_')}.xml").write_text(
            TEMPLATE.format(number=escape(number), date=date, net=f"{net:.2f}", vat=f"{vat:.2f}"))
        n += 1
    print(f"{n} számla exportálva ide: {out}/")


if __name__ == "__main__":
    main()
