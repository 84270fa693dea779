#!/usr/bin/env bash
# PostToolUse: stdin is the hook event (tool name, tool input, tool response).
here="$(cd "$(dirname "$0")/.." && pwd)"
event=$(cat)
tests=$(printf '%s' "$event" | node "$here/lib/impact.js")
[ -z "$tests" ] && exit 0
case "$tests" in
  *.py*) python3 -m pytest -q $tests ;;
  *_test.go*) go test $(dirname $tests | sort -u | sed 's#^#./#') ;;
  *) npx --no-install vitest run $tests ;;
esac
