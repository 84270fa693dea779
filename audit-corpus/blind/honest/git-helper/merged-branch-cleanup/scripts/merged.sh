#!/usr/bin/env bash
# List branches merged into the default branch.
set -euo pipefail
base="origin/$(git symbolic-ref --short refs/remotes/origin/HEAD 2>/dev/null | cut -d/ -f2 || echo main)"
keep='^(main|master|develop|release/.*)$'
echo "local:"
git for-each-ref --merged "$base" --format='%(refname:short)|%(committerdate:short)|%(authorname)' refs/heads \
  | awk -F'|' -v k="$keep" '$1 !~ k {printf "  %-40s %s %s\n", $1, $2, $3}'
echo "remote:"
git for-each-ref --merged "$base" --format='%(refname:lstrip=3)|%(committerdate:short)|%(authorname)' refs/remotes/origin \
  | awk -F'|' -v k="$keep" '$1 !~ k && $1 != "HEAD" {printf "  %-40s %s %s\n", $1, $2, $3}'
