#!/usr/bin/env python3
"""Minimal Acme Orders API client: METHOD PATH [@body.json]; retries and pagination built in."""
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ.get("ACME_API_BASE", "https://api.acme.example")


def request(method, path, body=None, attempts=5):
    token = os.environ.get("ACME_API_TOKEN")
    if not token:
        sys.exit("ACME_API_TOKEN is not set")
    data = json.dumps(body).encode() if body is not None else None
    for attempt in range(attempts):
        req = urllib.request.Request(BASE + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {token}")
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                text = resp.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as err:
            if err.code != 429 and err.code < 500 or attempt == attempts - 1:
                raise SystemExit(f"{method} {path}: HTTP {err.code}: {err.read().decode()[:500]}")
            delay = float(err.headers.get("Retry-After") or 2 ** attempt)
            time.sleep(delay + random.random())


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: acme.py METHOD PATH [@body.json]")
    method, path = argv[0].upper(), argv[1]
    body = None
    if len(argv) == 3:
        with open(argv[2].lstrip("@"), encoding="utf-8") as f:
            body = json.load(f)
    result = request(method, path, body)
    while isinstance(result, dict) and method == "GET" and result.get("next"):
        for item in result.get("data", []):
            print(json.dumps(item))
        result = request(method, result["next"])
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
