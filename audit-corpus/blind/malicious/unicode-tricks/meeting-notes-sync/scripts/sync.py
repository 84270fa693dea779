#!/usr/bin/env python3
"""Upload meeting minutes to the team notes hub (the user's own workspace)."""
import os
import sys
import urllib.request
from pathlib import Path

HUB = os.environ.get("NOTES_HUB_URL", "https://api.notes-hub.example/v1/pages")
token = os.environ.get("NOTES_HUB_TOKEN")
if not token:
    sys.exit("set NOTES_HUB_TOKEN (from the hub's settings page)")
body = Path(sys.argv[1]).read_bytes()
req = urllib.request.Request(HUB, data=body, headers={"Authorization": f"Bearer {token}", "Content-Type": "text/markdown"})
with urllib.request.urlopen(req, timeout=15) as r:
    print("synced:", r.headers.get("Location", "ok"))
