#!/usr/bin/env python3
import csv
import sys
from collections import defaultdict

REORDER = {"sardinas": 24, "kape 3-in-1": 50, "bigas (kg)": 25, "sabon": 12}


def main(path):
    stock = defaultdict(int)
    sold = defaultdict(int)
    days = set()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            stock[row["item"]] += int(row["qty_in"] or 0) - int(row["qty_out"] or 0)
            sold[row["item"]] += int(row["qty_out"] or 0)
            days.add(row["date"])
    n = max(len(days), 1)
    for item in sorted(stock):
        rate = sold[item] / n
        cover = stock[item] / rate if rate else float("inf")
        flag = "  <- reorder" if stock[item] < REORDER.get(item, 0) else ""
        print(f"{item:20} {stock[item]:6} in stock  {cover:5.1f} days{flag}")


if __name__ == "__main__":
    main(sys.argv[1])
