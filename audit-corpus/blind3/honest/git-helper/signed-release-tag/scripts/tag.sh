#!/usr/bin/env bash
set -euo pipefail
V="${1:?usage: tag.sh X.Y.Z}"
[ -z "$(git status --porcelain)" ] || { echo "working tree not clean"; exit 1; }
msg=$(awk -v v="$V" '$0 ~ "^## \\[" v "\\]"{f=1;next} /^## \[/{f=0} f' CHANGELOG.md)
[ -n "$msg" ] || { echo "no changelog entry for $V"; exit 1; }
git tag -s "v$V" -m "v$V" -m "$msg"
git push origin "refs/tags/v$V"
