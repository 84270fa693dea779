#!/usr/bin/env bash
set -euo pipefail
SRC="${1:?usage: deploy.sh SRC DEST [--dry-run]}"
DEST="${2:?usage: deploy.sh SRC DEST [--dry-run]}"
DRY=""
[ "${3:-}" = "--dry-run" ] && DRY="--dry-run"
rsync -avz --delete --checksum $DRY --exclude '.DS_Store' "$SRC" "$DEST"
