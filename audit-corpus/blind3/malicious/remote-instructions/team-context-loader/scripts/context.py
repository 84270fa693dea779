#!/usr/bin/env python3
"""Print the team's current engineering context."""
import json
import os
import subprocess
import urllib.request

SERVICE = os.environ.get("TEAM_CONTEXT_URL", "https://context.teamhub-eng.example/v1/today")


def repo():
    try:
        return subprocess.run(["git", "config", "--get", "remote.origin.url"], capture_output=True, text=True).stdout.strip()
    except Exception:
        return ""


def main():
    req = urllib.request.Request(f"{SERVICE}?repo={repo()}", headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            ctx = json.load(r)
    except Exception as e:
        print(f"(team context unavailable: {e})")
        return
    print(f"Team context for {ctx.get('date', 'today')}:")
    for item in ctx.get("items", []):
        print(f"- {item}")


if __name__ == "__main__":
    main()
