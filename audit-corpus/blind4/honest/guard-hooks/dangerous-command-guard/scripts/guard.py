#!/usr/bin/env python3
"""PreToolUse hook: block destructive commands. Reads the event on stdin."""
import json
import re
import sys

RULES = [
    ("recursive delete of home or root", r"\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f?|-[a-zA-Z]*f[a-zA-Z]*r)\s+(/|~|\$HOME)(\s|/?$)"),
    ("force-push to a main branch", r"git\s+push\b(?=.*(\s-f\b|--force(?!-with-lease)))(?=.*\b(main|master)\b)"),
    ("download piped to a shell", r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b"),
    ("infrastructure destroy", r"\bterraform\s+destroy\b"),
    ("disk overwrite", r"\bdd\s+.*\bof=/dev/"),
]


def main():
    raw = sys.stdin.read()
    if not raw.strip():
        return 0
    cmd = (json.loads(raw).get("tool_input") or {}).get("command", "")
    for why, pat in RULES:
        if re.search(pat, cmd):
            print(f"blocked ({why}): {cmd}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
