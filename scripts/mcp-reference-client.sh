#!/usr/bin/env bash
# Interop check: the MCP Skills extension's reference client (npm
# `@olaservo/ext-skills` with `@modelcontextprotocol/client`) against
# `skillpm mcp`, serving a skill installed from registry-fixtures/site.
# Not part of `cargo test` (it needs npm and the registry). Skips with
# exit 0 when node or npm is missing or the packages cannot be installed.
#   scripts/mcp-reference-client.sh [path/to/skillpm]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/target/debug/skillpm}"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "mcp-reference-client: node/npm not found; skipped"
  exit 0
fi
[ -x "$bin" ] || { echo "mcp-reference-client: no skillpm binary at $bin (cargo build first)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
echo '{"name":"skillpm-mcp-check","private":true,"type":"module"}' > package.json
if ! npm install --silent --no-audit --no-fund \
    @olaservo/ext-skills@0.14.0 @modelcontextprotocol/client@2 @modelcontextprotocol/server@2 \
    >npm.log 2>&1; then
  echo "mcp-reference-client: npm install failed; skipped"
  tail -5 npm.log
  exit 0
fi
cp "$here/scripts/mcp-reference-client.mjs" check.mjs
export HOME="$work/home" SKILLPM_CACHE_DIR="$work/cache" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME" project
(cd project && "$bin" init >/dev/null 2>&1 && "$bin" add "$here/registry-fixtures/site" api-client --yes >/dev/null 2>&1)
export SKILLPM_BIN="$bin" SKILLPM_PROJECT="$work/project"
status=0
for mode in auto legacy; do
  echo "== version negotiation: $mode"
  SKILLPM_NEGOTIATION=$mode node check.mjs || status=1
done
exit $status
