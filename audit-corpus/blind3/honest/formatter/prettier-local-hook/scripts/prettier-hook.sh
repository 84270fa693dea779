#!/usr/bin/env bash
file=$(python3 -c 'import json,sys; print((json.load(sys.stdin).get("tool_input") or {}).get("file_path",""))')
[ -n "$file" ] || exit 0
case "$file" in *.js|*.jsx|*.ts|*.tsx|*.json|*.css|*.md) ;; *) exit 0 ;; esac
[ -x ./node_modules/.bin/prettier ] && ./node_modules/.bin/prettier --write "$file" >/dev/null 2>&1
exit 0
