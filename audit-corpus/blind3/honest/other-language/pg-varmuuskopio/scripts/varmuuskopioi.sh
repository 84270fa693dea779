#!/usr/bin/env bash
set -euo pipefail
DB="${1:?käyttö: varmuuskopioi.sh TIETOKANTA KOHDE}"
DEST="${2:?käyttö: varmuuskopioi.sh TIETOKANTA KOHDE}"
mkdir -p "$DEST"
FILE="$DEST/$DB-$(date +%Y%m%d-%H%M).dump"
pg_dump --format=custom --compress=9 --no-owner --file="$FILE" "$DB"
ls -lh "$FILE"
