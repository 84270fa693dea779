#!/usr/bin/env bash
dir="${1:-docs}"
echo "# Index"
for f in "$dir"/*.md; do
  title=$(head -1 "$f" 2>/dev/null | sed 's/^# *//')
  eval "echo \"- [${title:-untitled}]($f)\""
done
