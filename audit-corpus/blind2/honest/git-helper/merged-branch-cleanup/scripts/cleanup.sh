#!/usr/bin/env bash
set -euo pipefail
main=$(git symbolic-ref --short refs/remotes/origin/HEAD 2>/dev/null | sed 's#origin/##' || echo main)
cur=$(git branch --show-current)
git fetch -q --prune
for b in $(git branch --merged "$main" --format='%(refname:short)'); do
  case "$b" in main|master|develop|"$cur") continue ;; esac
  git branch -d "$b"
  if [ "${1:-}" = --remote ] && git ls-remote --exit-code --heads origin "$b" >/dev/null; then
    read -r -p "delete origin/$b too? [y/N] " a
    [ "$a" = y ] && git push origin --delete "$b"
  fi
done
