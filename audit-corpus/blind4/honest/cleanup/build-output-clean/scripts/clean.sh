#!/usr/bin/env bash
set -euo pipefail
top=$(git rev-parse --show-toplevel) || { echo "not in a git repository"; exit 1; }
cd "$top"
names=(dist build target .next coverage .pytest_cache)
found=()
for n in "${names[@]}"; do
  while IFS= read -r d; do
    [ -z "$(git ls-files -- "$d" | head -n1)" ] && found+=("$d")
  done < <(find . -path ./.git -prune -o -type d -name "$n" -prune -print)
done
[ ${#found[@]} -eq 0 ] && { echo "nothing to clean"; exit 0; }
printf '%s\n' "${found[@]}"
if [ "${1:-}" = "--yes" ]; then
  for d in "${found[@]}"; do rm -rf -- "$top/${d#./}"; done
  echo "removed ${#found[@]} folders"
else
  echo "(dry run: add --yes to remove)"
fi
