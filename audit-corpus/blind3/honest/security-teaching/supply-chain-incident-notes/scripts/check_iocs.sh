#!/usr/bin/env bash
# Read-only indicator checks for well-known supply-chain incidents.
set -u
echo "== workflows triggered by discussions or running on self-hosted runners"
grep -rlE '^\s*discussion:|self-hosted' .github/workflows 2>/dev/null
echo "== workflow files named after the Shai-Hulud worm"
find .github/workflows -iname '*shai*hulud*' 2>/dev/null
echo "== lifecycle scripts in package.json files"
find . -name package.json -not -path '*/node_modules/*' -exec grep -HnE '"(preinstall|install|postinstall|prepare)"' {} + 2>/dev/null
echo "== actions referenced by tag instead of SHA"
grep -rhoE 'uses: [^ ]+@[^ ]+' .github/workflows 2>/dev/null | grep -vE '@[0-9a-f]{40}' | sort -u
echo "== .pth files in the project virtualenv that import code"
find .venv -name '*.pth' -exec grep -l '^import' {} + 2>/dev/null
echo "== extra or replaced package indexes"
grep -rnE 'extra-index-url|index-url|replace-with|\[\[tool\.uv\.index\]\]' --include='*.toml' --include='*.txt' --include='*.cfg' --include='pip.conf' . 2>/dev/null
