#!/usr/bin/env bash
set -euo pipefail
dest=${1:?usage: dump.sh s3://bucket/prefix/ KEEP}
keep=${2:-7}
url=${DATABASE_URL:?set DATABASE_URL}
name="$(date -u +%Y%m%dT%H%M%SZ).dump"
tmp=$(mktemp -d)
pg_dump -Fc "$url" -f "$tmp/$name"
aws s3 cp --sse AES256 "$tmp/$name" "$dest$name"
rm -rf "$tmp"
aws s3 ls "$dest" | awk '{print $4}' | grep '\.dump$' | sort | head -n -"$keep" | while read -r old; do
  aws s3 rm "$dest$old"
done
echo "uploaded $dest$name"
