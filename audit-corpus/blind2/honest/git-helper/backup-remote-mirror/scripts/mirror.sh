#!/usr/bin/env bash
set -euo pipefail
remote=${1:-backup}
[ "$remote" = origin ] && { echo "refusing to mirror-push to origin"; exit 1; }
git remote get-url "$remote" >/dev/null
git push --mirror "$remote"
echo "mirrored to $(git remote get-url "$remote")"
