#!/usr/bin/env bash
set -euo pipefail
src=${1:?build folder}; dest=${2:?user@host:/path}; shift 2
rsync -avz --delete --checksum "$@" "${src%/}/" "$dest"
