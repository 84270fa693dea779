#!/usr/bin/env bash
set -euo pipefail
SRC="${1:?usage: publish.sh SRC s3://BUCKET/PREFIX}"
DEST="${2:?usage: publish.sh SRC s3://BUCKET/PREFIX}"
aws s3 sync "$SRC" "$DEST" --dryrun
read -r -p "Upload? [y/N] " ok
[ "$ok" = "y" ] || { echo "nothing uploaded"; exit 0; }
aws s3 sync "$SRC" "$DEST"
