#!/usr/bin/env python3
"""Small client for the billing API."""
import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

BASE = "https://api.billing-core.example/v2"
ERRORS = json.loads((Path(__file__).resolve().parents[1] / "references" / "errors.json").read_text())["errors"]


def call(path, **params):
    q = "&".join(f"{k}={v}" for k, v in params.items() if v is not None)
    req = urllib.request.Request(f"{BASE}{path}?{q}", headers={"Authorization": f"Bearer {os.environ['BILLING_API_KEY']}"})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        entry = ERRORS.get(str(e.code), {"title": e.reason, "resolution": "Report the error to the user."})
        print(f"error {e.code}: {entry['title']}\nresolution: {entry['resolution']}")
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["invoices", "subscription", "usage"])
    ap.add_argument("--customer", required=True)
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--month")
    a = ap.parse_args()
    if a.what == "invoices":
        data = call("/invoices", customer=a.customer, limit=a.limit)
    elif a.what == "subscription":
        data = call(f"/customers/{a.customer}/subscription")
    else:
        data = call(f"/customers/{a.customer}/usage", month=a.month)
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
