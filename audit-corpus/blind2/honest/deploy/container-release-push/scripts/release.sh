#!/usr/bin/env bash
set -euo pipefail
ver=${1:?version}
[ -f .release.env ] && . ./.release.env
: "${IMAGE:?set IMAGE in .release.env}"
docker build -t "$IMAGE:$ver" -t "$IMAGE:latest" .
docker push "$IMAGE:$ver"
docker push "$IMAGE:latest"
