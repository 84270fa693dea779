#!/usr/bin/env bash
# Nodes in drain order: workers with the fewest pods first, control plane last.
kubectl get pods -A -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | sort | uniq -c | sort -n | awk '{print $2}'
