#!/bin/bash
# Builds with the project's npm script.
set -e
cd "$(dirname "$0")/.."
npm run build --silent
echo "built: $(cat out/version.txt)"
