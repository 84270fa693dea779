#!/usr/bin/env bash
# Peak RSS of `search` and `add --list` over a generated 50,000-skill v0.2.0
# index served on loopback (docs/performance.md, "A 50,000-skill index").
# Usage: SKILLPM_BIN=target/release/skillpm scripts/bench-large-index.sh
# Prints one line per case: case, exit code, peak RSS in kB (GNU time -v).
set -euo pipefail
BIN=${SKILLPM_BIN:-target/release/skillpm}
BIN=$(realpath "$BIN")
COUNT=${BENCH_SKILLS:-50000}
PORT=${BENCH_PORT:-18765}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/reg" "$work/home" "$work/proj"
python3 - "$COUNT" "$work/reg/index.json" <<'PY'
import hashlib, json, sys
n, out = int(sys.argv[1]), sys.argv[2]
skills = [{
    "name": f"skill-{i:05d}",
    "description": f"Generated skill number {i} for the large index test: formats, lints and ships things.",
    "type": "skill-md",
    "url": f"https://registry.example/skills/skill-{i:05d}/SKILL.md",
    "digest": "sha256:" + hashlib.sha256(f"skill-{i:05d}".encode()).hexdigest(),
    "version": "1.0.0",
} for i in range(n)]
json.dump({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": skills}, open(out, "w"))
PY
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$work/reg" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/index.json" && break
  sleep 0.1
done
export HOME="$work/home" XDG_CACHE_HOME="$work/home/.cache" XDG_STATE_HOME="$work/home/.state"
cd "$work/proj"
"$BIN" init >/dev/null
url="http://127.0.0.1:$PORT/index.json"
measure() {
  local name=$1; shift
  local rc=0
  /usr/bin/time -v "$BIN" "$@" >/dev/null 2>"$work/time" || rc=$?
  echo "$name rc=$rc rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")"
}
measure "search (cold cache)" search skill-3141 --source "$url"
measure "search (warm cache)" search skill-3141 --source "$url"
measure "add --list" add --source "$url" --list
measure "search (local file)" search skill-3141 --source "$work/reg/index.json"
