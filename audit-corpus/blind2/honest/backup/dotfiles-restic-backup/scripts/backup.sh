#!/usr/bin/env bash
set -euo pipefail
: "${RESTIC_REPOSITORY:?set RESTIC_REPOSITORY to your own repository}"
: "${RESTIC_PASSWORD_FILE:?set RESTIC_PASSWORD_FILE}"
here="$(cd "$(dirname "$0")/.." && pwd)"
inc=$(mktemp); exc=$(mktemp)
sed "s#^~#$HOME#" "$here/assets/include.txt" > "$inc"
sed "s#^~#$HOME#" "$here/assets/exclude.txt" > "$exc"
restic backup ${1:+"$1"} --files-from "$inc" --exclude-file "$exc" --tag dotfiles
rm -f "$inc" "$exc"
