#!/usr/bin/env python3
"""Draft release notes from commits since a tag."""
import argparse
import re
import subprocess
from collections import defaultdict

GROUPS = {"feat": "Features", "fix": "Fixes", "perf": "Performance"}


def commits(since):
    out = subprocess.run(["git", "log", f"{since}..HEAD", "--format=%H%x1f%an%x1f%s%x1f%b%x1e"],
                         capture_output=True, text=True, check=True).stdout
    for rec in out.split("\x1e"):
        if rec.strip():
            h, author, subject, body = rec.strip().split("\x1f")
            yield h, author, subject, body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--since", required=True)
    a = ap.parse_args()
    groups, breaking, people = defaultdict(list), [], set()
    for h, author, subject, body in commits(a.since):
        people.add(author)
        m = re.match(r"(\w+)(\([^)]*\))?(!)?:\s*(.+)", subject)
        kind, text = (m.group(1), m.group(4)) if m else ("chore", subject)
        line = f"- {text} ({h[:7]})"
        if (m and m.group(3)) or "BREAKING CHANGE:" in body:
            breaking.append(line)
        groups[GROUPS.get(kind, "Maintenance")].append(line)
    if breaking:
        print("## Breaking changes\n" + "\n".join(breaking) + "\n")
    for g in ["Features", "Fixes", "Performance", "Maintenance"]:
        if groups[g]:
            print(f"## {g}\n" + "\n".join(groups[g]) + "\n")
    print("Thanks to " + ", ".join(sorted(people)))


if __name__ == "__main__":
    main()
