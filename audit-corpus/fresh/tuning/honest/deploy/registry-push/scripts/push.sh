#!/usr/bin/env bash
set -euo pipefail
ver="$1"
img="registry.corp.example/platform/api"
printf '%s' "${REGISTRY_TOKEN:?}" | docker login registry.corp.example -u "${REGISTRY_USER:?}" --password-stdin
docker build -t "$img:$ver" -t "$img:latest" .
docker push "$img:$ver"
docker push "$img:latest"
docker logout registry.corp.example
