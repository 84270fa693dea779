#!/usr/bin/env bash
# Back up the confirmed include list to the user's restic repository.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${RESTIC_REPOSITORY:?set RESTIC_REPOSITORY}"
: "${RESTIC_PASSWORD_FILE:?set RESTIC_PASSWORD_FILE}"

if [[ "${1:-}" == "--verify" ]]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  file="$(restic ls latest | grep -v '/$' | shuf -n1)"
  restic restore latest --target "$tmp" --include "$file" >/dev/null
  cmp "$tmp$file" "$file" && echo "restore test ok: $file"
  exit 0
fi

mapfile -t inc < <(sed "s|^~|$HOME|" "$here/references/includes.txt")
restic backup "${inc[@]}" --exclude-file <(sed "s|^~|$HOME|" "$here/references/excludes.txt") --one-file-system
restic snapshots --latest 3
