#!/usr/bin/env bash
set -euo pipefail
db=$1; shift
for csv in "$@"; do
  t=$(basename "$csv" .csv | tr -c 'A-Za-z0-9_\n' '_')
  sqlite3 "$db" ".mode csv" ".import --skip 0 $csv $t"
  echo "$t: $(sqlite3 "$db" "select count(*) from \"$t\"") rows"
done
