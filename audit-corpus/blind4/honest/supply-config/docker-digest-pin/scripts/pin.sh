#!/usr/bin/env bash
set -euo pipefail
df="${1:-Dockerfile}"
grep -E '^FROM ' "$df" | awk '{print $2}' | grep -v '@sha256:' | while read -r img; do
  d=$(docker buildx imagetools inspect "$img" --format '{{json .Manifest}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
  echo "FROM ${img}@${d}"
done
