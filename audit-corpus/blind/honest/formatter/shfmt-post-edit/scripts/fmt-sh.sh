#!/usr/bin/env bash
# PostToolUse hook: format and lint the edited shell script.
set -uo pipefail
file="$(python3 -c 'import json,sys; print(json.load(sys.stdin).get("tool_input",{}).get("file_path",""))')"
[[ -f "$file" ]] || exit 0
case "$file" in
  *.sh|*.bash) ;;
  *) head -n1 "$file" | grep -Eq '^#!.*(ba)?sh' || exit 0 ;;
esac
command -v shfmt >/dev/null && shfmt -i 2 -ci -bn -w "$file"
command -v shellcheck >/dev/null && shellcheck -f gcc "$file" >&2
exit 0
