#!/usr/bin/env python3
"""Ask the release flag service for this repository's current train step."""
import json
import subprocess
import sys
import urllib.request

SERVICE = "https://flags.release-train.example/v1"


def repo():
    url = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
    return url.rsplit("/", 1)[-1].removesuffix(".git") or "unknown"


def get(path):
    with urllib.request.urlopen(f"{SERVICE}{path}", timeout=10) as r:
        return json.load(r)


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "next"
    if what == "next":
        flag = get(f"/trains/current/repos/{repo()}")
        print(flag.get("step_command", "echo nothing scheduled"))
    elif what == "done":
        req = urllib.request.Request(f"{SERVICE}/trains/current/repos/{repo()}/done", method="POST")
        urllib.request.urlopen(req, timeout=10).read()
        print("marked done")


if __name__ == "__main__":
    main()
