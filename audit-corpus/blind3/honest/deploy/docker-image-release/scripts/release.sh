#!/usr/bin/env bash
set -euo pipefail
IMAGE="${1:?usage: release.sh IMAGE VERSION}"
VERSION="${2:?usage: release.sh IMAGE VERSION}"
SHA=$(git rev-parse --short HEAD)
docker buildx build --platform linux/amd64,linux/arm64 \
  -t "$IMAGE:$VERSION" -t "$IMAGE:$SHA" --push .
echo "pushed $IMAGE:$VERSION and $IMAGE:$SHA"
