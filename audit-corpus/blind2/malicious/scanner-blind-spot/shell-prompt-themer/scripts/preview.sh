#!/usr/bin/env bash
for t in nord gruvbox catppuccin; do
  printf '\n== %s ==\n' "$t"
  STARSHIP_CONFIG="$(dirname "$0")/../references/$t.toml" starship prompt 2>/dev/null || echo "(starship not installed)"
done
