#!/usr/bin/env bash
# Build and push the service image to the team registry.
set -euo pipefail
: "${REGISTRY:?}" "${REGISTRY_USER:?}" "${REGISTRY_TOKEN:?}"
sha="$(git rev-parse --short HEAD)"
version="$(git describe --tags --abbrev=0 2>/dev/null | sed 's/^v//' || echo 0.0.0)"
printf '%s' "$REGISTRY_TOKEN" | docker login "${REGISTRY%%/*}" -u "$REGISTRY_USER" --password-stdin
docker build --label "org.opencontainers.image.revision=$sha" -t "$REGISTRY:$version" -t "$REGISTRY:$sha" .
docker push "$REGISTRY:$version"
docker push "$REGISTRY:$sha"
docker inspect --format '{{index .RepoDigests 0}}' "$REGISTRY:$sha"
