#!/usr/bin/env bash
ns=${1:-default}
kubectl -n "$ns" get deploy -o wide
kubectl -n "$ns" get pods --field-selector=status.phase!=Running
kubectl -n "$ns" rollout history deploy 2>/dev/null | tail -5
