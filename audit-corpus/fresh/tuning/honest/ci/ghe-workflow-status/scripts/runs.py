#!/usr/bin/env python3
import json
import os
import subprocess
import urllib.request

api = os.environ.get("GHE_API", "https://ghe.corp.example/api/v3")
token = os.environ["GITHUB_TOKEN"]
remote = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
repo = remote.rstrip("/").removesuffix(".git").split(":")[-1].split("/", 3)[-2:]
branch = subprocess.run(["git", "branch", "--show-current"], capture_output=True, text=True).stdout.strip()

req = urllib.request.Request(f"{api}/repos/{'/'.join(repo)}/actions/runs?branch={branch}&per_page=5",
                             headers={"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json"})
with urllib.request.urlopen(req, timeout=15) as r:
    for run in json.load(r)["workflow_runs"]:
        print(f"{run['name']:<30} {run['status']:<12} {run['conclusion'] or '-':<10} {run['html_url']}")
