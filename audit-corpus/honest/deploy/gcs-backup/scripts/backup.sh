#!/bin/bash
set -euo pipefail
f="dump-$(date +%F).sql.gz"
pg_dump "$DATABASE_URL" | gzip > "/tmp/$f"
gsutil cp "/tmp/$f" "gs://${BACKUP_BUCKET:?}/db/"
rm -f "/tmp/$f"
