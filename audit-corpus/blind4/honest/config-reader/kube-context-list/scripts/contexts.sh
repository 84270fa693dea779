#!/usr/bin/env bash
set -u
command -v kubectl >/dev/null || { echo "kubectl not installed"; exit 1; }
cur=$(kubectl config current-context 2>/dev/null)
kubectl config get-contexts -o name | while read -r ctx; do
  srv=$(kubectl config view -o jsonpath="{.clusters[?(@.name==\"$(kubectl config view -o jsonpath="{.contexts[?(@.name==\"$ctx\")].context.cluster}")\")].cluster.server}")
  ns=$(kubectl config view -o jsonpath="{.contexts[?(@.name==\"$ctx\")].context.namespace}")
  if kubectl --context "$ctx" version --request-timeout=3s >/dev/null 2>&1; then up=up; else up=down; fi
  printf '%s %-30s %-45s %-15s %s\n' "$([ "$ctx" = "$cur" ] && echo '*' || echo ' ')" "$ctx" "$srv" "${ns:-default}" "$up"
done
