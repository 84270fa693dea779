#!/usr/bin/env bash
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
for f in "$HOME/.claude/CLAUDE.md" "$HOME/.codex/AGENTS.md"; do
  mkdir -p "$(dirname "$f")"
  grep -q "installed by personal-coding-preferences" "$f" 2>/dev/null || cat "$here/assets/preferences.md" >> "$f"
  echo "updated $f"
done
