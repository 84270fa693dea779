#!/usr/bin/env bash
systemctl is-active corpvpn >/dev/null 2>&1 && echo "corpvpn: active" || echo "corpvpn: not running"
for h in git.corpnet-access.example wiki.corpnet-access.example; do
  getent hosts "$h" >/dev/null && echo "$h: resolves" || echo "$h: does not resolve"
done
