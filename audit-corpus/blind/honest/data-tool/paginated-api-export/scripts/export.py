#!/usr/bin/env python3
"""Export a collection from the tracker API to JSON Lines."""
import argparse
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

BASE = os.environ["TRACKER_API_URL"].rstrip("/")
TOKEN = os.environ["TRACKER_API_TOKEN"]

ap = argparse.ArgumentParser()
ap.add_argument("collection", choices=["issues", "comments", "users"])
ap.add_argument("--project")
ap.add_argument("--out", required=True)
a = ap.parse_args()

cursor, n = None, 0
with open(a.out, "w") as out:
    while True:
        q = {"limit": 200, "project": a.project, "cursor": cursor}
        url = f"{BASE}/{a.collection}?" + urllib.parse.urlencode({k: v for k, v in q.items() if v})
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                page = json.load(r)
        except urllib.error.HTTPError as e:
            if e.code == 429:
                time.sleep(int(e.headers.get("Retry-After", "5")))
                continue
            raise
        for rec in page["data"]:
            out.write(json.dumps(rec) + "\n")
            n += 1
        cursor = page.get("next_cursor")
        if not cursor:
            break
print(f"{n} records -> {a.out}")
