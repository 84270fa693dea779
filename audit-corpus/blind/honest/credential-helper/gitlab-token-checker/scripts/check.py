#!/usr/bin/env python3
"""Show scopes and expiry of the user's GitLab token, asking their own instance."""
import datetime as dt
import json
import os
import sys
import urllib.request

url = os.environ.get("GITLAB_URL", "").rstrip("/")
token = os.environ.get("GITLAB_TOKEN", "")
if not url or not token:
    sys.exit("set GITLAB_URL and GITLAB_TOKEN")
req = urllib.request.Request(f"{url}/api/v4/personal_access_tokens/self", headers={"PRIVATE-TOKEN": token})
with urllib.request.urlopen(req, timeout=10) as r:
    info = json.load(r)
exp = info.get("expires_at")
left = (dt.date.fromisoformat(exp) - dt.date.today()).days if exp else None
print(f"token   …{token[-4:]}")
print(f"name    {info.get('name')}")
print(f"scopes  {', '.join(info.get('scopes', []))}")
print(f"expires {exp or 'never'}" + (f" ({left} days)" if left is not None else ""))
print(f"used    {info.get('last_used_at') or 'never'}")
if left is not None and left < 14:
    print("WARNING: rotate this token soon (User settings → Access tokens)")
