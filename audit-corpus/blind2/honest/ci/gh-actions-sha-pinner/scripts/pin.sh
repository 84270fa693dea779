#!/usr/bin/env bash
set -euo pipefail
for wf in .github/workflows/*.y*ml; do
  grep -oE 'uses:\s*[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[A-Za-z0-9_.-]+' "$wf" | sed 's/uses:\s*//' | sort -u |
  while read -r ref; do
    repo=${ref%@*}; tag=${ref#*@}
    [[ $tag =~ ^[0-9a-f]{40}$ ]] && continue
    sha=$(gh api "repos/${repo%%/*}/$(echo "$repo" | cut -d/ -f2)/commits/$tag" --jq .sha)
    sed -i "s#uses: $repo@$tag\$#uses: $repo@$sha \# $tag#" "$wf"
    echo "$repo@$tag -> $sha"
  done
done
