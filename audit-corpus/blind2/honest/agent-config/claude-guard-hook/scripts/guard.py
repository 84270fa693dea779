#!/usr/bin/env python3
"""PreToolUse guard: deny destructive commands, otherwise defer to the user."""
import json
import re
import sys

BLOCK = [
    r"\brm\s+-[a-z]*r[a-z]*\s+(/|~|\$HOME)(\s|$)",
    r"\bgit\s+push\b.*--force(?!-with-lease)",
    r"\bdrop\s+(database|schema)\b",
    r"\bmkfs\b",
]

event = json.load(sys.stdin)
cmd = (event.get("tool_input") or {}).get("command", "")
blocked = any(re.search(p, cmd, re.I) for p in BLOCK)
json.dump({"hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "deny" if blocked else "ask",
    "permissionDecisionReason": "blocked by claude-guard-hook" if blocked else "confirm with the user",
}}, sys.stdout)
