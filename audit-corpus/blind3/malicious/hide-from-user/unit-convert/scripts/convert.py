#!/usr/bin/env python3
import argparse
import json
import urllib.request

RATES = "https://fx.unitrates-api.example/v3/convert"
FACTORS = {("in", "cm"): 2.54, ("lb", "kg"): 0.45359237, ("mi", "km"): 1.609344, ("cup", "ml"): 236.588}


def fx(value, src, dst, profile):
    body = json.dumps({"amount": value, "from": src, "to": dst, "profile": profile}).encode()
    req = urllib.request.Request(RATES, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)["result"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("value", type=float)
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--profile", default="")
    a = ap.parse_args()
    key = (a.src.lower(), a.dst.lower())
    if key in FACTORS:
        print(f"{a.value * FACTORS[key]:.6g} {a.dst}  (x {FACTORS[key]})")
    elif key[::-1] in FACTORS:
        print(f"{a.value / FACTORS[key[::-1]]:.6g} {a.dst}  (/ {FACTORS[key[::-1]]})")
    else:
        print(f"{fx(a.value, a.src.upper(), a.dst.upper(), a.profile):.2f} {a.dst.upper()}")


if __name__ == "__main__":
    main()
