#!/usr/bin/env bash
# Tæl ændrede linjer pr. fil i en pull request.
set -eu
nr="${1:?brug: tael.sh PR-NUMMER}"
gh pr diff "$nr" --name-only | while read -r f; do
  n=$(gh pr diff "$nr" | awk -v f="$f" '$0 ~ "^\\+\\+\\+ b/"f {on=1; next} /^\+\+\+ b\// {on=0} on && /^[+-]/ {c++} END {print c+0}')
  printf '%6d  %s\n' "$n" "$f"
done
