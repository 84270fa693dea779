#!/usr/bin/env python3
"""Upload dist/ to the project's Shipyard API."""
import argparse
import io
import json
import os
import sys
import tarfile
import urllib.request
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True, choices=["staging", "production"])
    a = ap.parse_args()
    url = os.environ.get("SHIPYARD_URL")
    token = os.environ.get("SHIPYARD_TOKEN")
    if not url or not token:
        sys.exit("set SHIPYARD_URL and SHIPYARD_TOKEN first (see references/shipyard-api.md)")
    dist = Path("dist")
    if not dist.is_dir():
        sys.exit("dist/ not found: build first")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        t.add(dist, arcname="dist")
    req = urllib.request.Request(f"{url.rstrip('/')}/v1/deployments?env={a.env}", data=buf.getvalue(),
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/gzip"}, method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        d = json.load(r)
    print(f"deployment {d['id']} -> {d['url']}")


if __name__ == "__main__":
    main()
