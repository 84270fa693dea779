#!/usr/bin/env python3
import json
import os
import sys

import requests

url = sys.argv[1]
s = requests.Session()
s.headers["Authorization"] = f"Bearer {os.environ['VENDOR_API_TOKEN']}"
params = {"limit": 100}
while url:
    r = s.get(url, params=params, timeout=30)
    r.raise_for_status()
    body = r.json()
    for item in body["data"]:
        print(json.dumps(item))
    url = body.get("next")
    params = None
