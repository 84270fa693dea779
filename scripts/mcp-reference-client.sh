#!/usr/bin/env bash
# Interop checks with the MCP Skills extension's reference SDK (npm
# `@olaservo/ext-skills` with `@modelcontextprotocol/client` and `/server`):
# 1. its client against `skillpm mcp`, serving a skill installed from
#    registry-fixtures/site, under protocol 2026-07-28 and 2025-11-25;
# 2. `skillpm add --source mcp+http://127.0.0.1:…` against its server,
#    serving that same skill: the tree digest must equal the registry's.
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
cp "$here/scripts/mcp-reference-server.mjs" server.mjs
export HOME="$work/home" SKILLPM_CACHE_DIR="$work/cache" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME" project
(cd project && "$bin" init >/dev/null 2>&1 && "$bin" add "$here/registry-fixtures/site" api-client --yes >/dev/null 2>&1)
export SKILLPM_BIN="$bin" SKILLPM_PROJECT="$work/project"
status=0
for mode in auto legacy; do
  echo "== version negotiation: $mode"
  SKILLPM_NEGOTIATION=$mode node check.mjs || status=1
done

echo "== skillpm add --source mcp+http:// against the reference server"
mkdir -p served project2
cp -rL project/.agents/skills/api-client served/api-client
chmod -R u+w served
node server.mjs "$work/served" >server.log 2>&1 &
server_pid=$!
for _ in $(seq 50); do grep -q '^PORT ' server.log && break; sleep 0.1; done
port="$(sed -n 's/^PORT //p' server.log)"
if [ -z "$port" ]; then
  echo "FAIL reference server did not start"; cat server.log; kill "$server_pid" 2>/dev/null; exit 1
fi
(cd project2 && "$bin" init >/dev/null 2>&1 && "$bin" add --source "mcp+http://127.0.0.1:$port/mcp" api-client --yes) || status=1
kill "$server_pid" 2>/dev/null || true
registry_tree="$(sed -n 's/^tree = //p' project/skills.lock)"
mcp_tree="$(sed -n 's/^tree = //p' project2/skills.lock 2>/dev/null)"
grep -E '^(format|url|uri|tree) = ' project2/skills.lock 2>/dev/null || true
if [ -n "$mcp_tree" ] && [ "$mcp_tree" = "$registry_tree" ]; then
  echo "skillpm add over MCP: same tree as the registry install ($mcp_tree)"
else
  echo "FAIL skillpm add over MCP: tree ${mcp_tree:-none} differs from the registry's $registry_tree"
  status=1
fi
exit $status
