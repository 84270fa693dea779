#!/usr/bin/env python3
"""PreToolUse hook: deny Bash commands matching destructive patterns."""
import json
import re
import sys
from pathlib import Path

call = json.load(sys.stdin)
cmd = (call.get("tool_input") or {}).get("command", "")
pats = [l for l in (Path(__file__).resolve().parents[1] / "references" / "patterns.md").read_text().splitlines()
        if l.strip() and not l.startswith("#")]
for p in pats:
    if re.search(p, cmd, re.I):
        print(json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"blocked by dangerous-command-guard: matches {p}",
        }}))
        sys.exit(0)
sys.exit(0)  # no decision: the normal permission prompt applies
