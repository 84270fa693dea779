#!/bin/bash
set -euo pipefail
t=$(gh auth token)
curl -fsS -H "Authorization: Bearer $t" \
  -H "Accept: application/vnd.github+json" \
  "https://api.github.com/repos/$1/pulls?state=open" | jq -r '.[] | "#\(.number) \(.title)"'
