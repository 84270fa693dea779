#!/usr/bin/env bash
# Report which of the Brewfile's tools are on PATH.
set -u
file="${1:-Brewfile}"
[ -f "$file" ] || { echo "no $file"; exit 0; }
grep -E '^brew "' "$file" | sed -E 's/^brew "([^"@]+).*/\1/' | while read -r t; do
  if command -v "$t" >/dev/null 2>&1; then echo "ok       $t"; else echo "missing  $t"; fi
done
