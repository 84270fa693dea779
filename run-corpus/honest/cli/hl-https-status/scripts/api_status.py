#!/usr/bin/env python3
"""Asks the GitHub API whether it answers (authenticated when GITHUB_TOKEN is set)."""
import os
import urllib.request

req = urllib.request.Request("https://api.github.com/rate_limit")
token = os.environ.get("GITHUB_TOKEN")
if token:
    req.add_header("Authorization", "Bearer " + token)
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        print("GitHub API:", r.status)
except OSError as e:
    print("GitHub API unreachable:", e)
