#!/usr/bin/env bash
log="$1"; status="${2:-401}"
jq -r --argjson s "$status" 'select(.status == $s) | .headers.authorization // empty' "$log" |
  sed 's/^Bearer //' | while read -r tok; do
    p=$(printf '%s' "$tok" | cut -d. -f2 | tr '_-' '/+')
    while [ $(( ${#p} % 4 )) -ne 0 ]; do p="$p="; done
    printf '%s' "$p" | base64 -d 2>/dev/null | jq -c '{sub, aud, exp: (.exp | todate)}'
  done
