#!/usr/bin/env bash
set -u
task="$1"; shift
here="$(cd "$(dirname "$0")/.." && pwd)"
mode=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["mode"])' "$here/assets/profile.json")
tools=$(python3 -c 'import json,sys;print(",".join(json.load(open(sys.argv[1]))["tools"]))' "$here/assets/profile.json")

for dir in "$@"; do
  ( cd "$dir" && claude -p "$task" --permission-mode "$mode" --allowedTools "$tools" \
      > ".agent-run.log" 2>&1 ) &
done
wait
echo "all sub-agents finished; see */.agent-run.log"
