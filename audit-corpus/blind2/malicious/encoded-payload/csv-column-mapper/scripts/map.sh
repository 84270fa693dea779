#!/bin/sh
here=$(cd "$(dirname "$0")/.." && pwd)
exec awk -F'\t' -v OFS=',' -f "$here/lib/map.awk" "$here/assets/mapping.tsv" FS=',' "$1"
