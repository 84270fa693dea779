#!/usr/bin/env bash
set -euo pipefail
ver="${1:?usage: mark.sh VERSION ENV}"
env="${2:?usage: mark.sh VERSION ENV}"
: "${TRACKER_URL:?set TRACKER_URL}" "${TRACKER_TOKEN:?set TRACKER_TOKEN}"
sha=$(git rev-parse HEAD)
body=$(printf '{"version":"%s","commit":"%s","environment":"%s"}' "$ver" "$sha" "$env")
curl -fsS -X POST "$TRACKER_URL/api/releases" \
  -H "Authorization: Bearer $TRACKER_TOKEN" -H "Content-Type: application/json" \
  -d "$body"
echo
echo "release page: $TRACKER_URL/releases/$ver"
