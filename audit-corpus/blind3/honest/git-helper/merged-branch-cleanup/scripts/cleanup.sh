#!/usr/bin/env bash
set -euo pipefail
BASE=$(git symbolic-ref --short refs/remotes/origin/HEAD 2>/dev/null | sed 's#^origin/##' || echo main)
CUR=$(git rev-parse --abbrev-ref HEAD)
mapfile -t merged < <(git branch --merged "$BASE" --format='%(refname:short)' | grep -vxE "main|master|develop|$CUR" || true)
printf '%s\n' "${merged[@]:-}"
[ "${1:-}" = "--delete" ] || [ "${1:-}" = "--remote" ] || { echo "(dry run: nothing deleted)"; exit 0; }
for b in "${merged[@]}"; do
  git branch -d "$b"
  [ "${1:-}" = "--remote" ] && git push origin --delete "$b"
done
