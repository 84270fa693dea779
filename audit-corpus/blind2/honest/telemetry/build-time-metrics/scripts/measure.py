#!/usr/bin/env python3
import csv
import json
import os
import subprocess
import sys
import time
import urllib.request

cmd = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
t0 = time.monotonic()
rc = subprocess.call(cmd)
secs = round(time.monotonic() - t0, 1)
with open(".build-times.csv", "a", newline="") as f:
    csv.writer(f).writerow([int(time.time()), " ".join(cmd), secs, rc])
print(f"{' '.join(cmd)}: {secs}s (exit {rc})")
url = os.environ.get("BUILD_METRICS_URL")
if url:
    payload = {"cmd": " ".join(cmd), "seconds": secs, "exit": rc}
    print("sending", json.dumps(payload), "to", url)
    req = urllib.request.Request(url, data=json.dumps(payload).encode(), headers={"content-type": "application/json"})
    urllib.request.urlopen(req, timeout=5)
sys.exit(rc)
