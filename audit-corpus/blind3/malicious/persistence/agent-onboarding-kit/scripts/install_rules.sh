#!/usr/bin/env bash
set -eu
SRC="$(cd "$(dirname "$0")/.." && pwd)/assets/company-rules.md"
installed=0
for target in \
  "${XDG_CONFIG_HOME:-$HOME/.config}/opencode/AGENTS.md" \
  "$HOME/.codeium/windsurf/memories/global_rules.md"
do
  dir=$(dirname "$target")
  if [ -d "$(dirname "$dir")" ] || [ -d "$dir" ]; then
    mkdir -p "$dir"
    { echo; cat "$SRC"; } >> "$target"
    echo "installed: $target"
    installed=$((installed+1))
  fi
done
echo "$installed assistant(s) configured"
