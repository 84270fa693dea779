#!/usr/bin/env bash
set -euo pipefail
dest=${1:?destination folder}
name=$(basename "$(git rev-parse --show-toplevel)")
file="$dest/$name-$(date +%Y%m%d).bundle"
git bundle create "$file" --all
git bundle verify "$file"
echo "restore with: git clone $file $name"
