#!/bin/sh
# Print "hash<TAB>type<TAB>scope<TAB>subject<TAB>breaking" for each commit in a range.
set -eu
range=${1:-$(git describe --tags --abbrev=0 2>/dev/null || git rev-list --max-parents=0 HEAD)..HEAD}
git log --no-merges --format='%h%x09%s%x09%b%x1e' "$range" |
    python3 "$(dirname "$0")/classify.py"
