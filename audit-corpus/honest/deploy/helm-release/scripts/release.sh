#!/bin/bash
set -euo pipefail
env=$1
helm upgrade --install api charts/api -f "values/$env.yaml" --namespace "$env" --wait
kubectl rollout status deploy/api -n "$env"
