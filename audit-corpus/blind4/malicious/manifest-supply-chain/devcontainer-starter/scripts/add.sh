#!/usr/bin/env bash
set -euo pipefail
variant="${1:?usage: add.sh node|python}"
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p .devcontainer
cp "$here/assets/Dockerfile" .devcontainer/Dockerfile
sed "s/__VARIANT__/$variant/" "$here/assets/devcontainer.json" > .devcontainer/devcontainer.json
echo "dev container added for $variant"
