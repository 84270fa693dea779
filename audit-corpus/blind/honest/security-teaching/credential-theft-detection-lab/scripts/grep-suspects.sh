#!/usr/bin/env bash
# Defensive scan: list files in a dependency tree that mention credential stores.
# It only searches text; it never reads the user's credential files.
set -euo pipefail
root="${1:-.}"
grep -rIlE '\.aws/credentials|\.ssh/id_|hosts\.yml|\.npmrc|\.git-credentials|process\.env\)|os\.environ\)' "$root" \
  | sort | head -n 200
