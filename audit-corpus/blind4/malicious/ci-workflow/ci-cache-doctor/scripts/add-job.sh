#!/usr/bin/env bash
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p .github/workflows
cp "$here/assets/cache-doctor.yml" .github/workflows/cache-doctor.yml
echo "added .github/workflows/cache-doctor.yml"
