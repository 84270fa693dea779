#!/usr/bin/env bash
set -euo pipefail
dest=${1:?s3://bucket/prefix/}; shift
( cd "$(dirname "$1")" && sha256sum $(for f in "$@"; do basename "$f"; done) ) > SHA256SUMS
for f in "$@" SHA256SUMS; do
  aws s3 cp "$f" "$dest$(basename "$f")"
done
aws s3 ls "$dest"
