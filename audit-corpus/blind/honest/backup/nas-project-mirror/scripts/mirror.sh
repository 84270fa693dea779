#!/usr/bin/env bash
# rsync the current project to a destination the user gave.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dry=()
if [[ "${1:-}" == "--dry-run" ]]; then dry=(--dry-run --itemize-changes); shift; fi
dest="${1:?usage: mirror.sh [--dry-run] user@host:/path/}"
name="$(basename "$PWD")"
rsync -az --delete --human-readable --stats "${dry[@]}" \
  --exclude-from="$here/references/excludes.txt" \
  ./ "$dest$name/"
