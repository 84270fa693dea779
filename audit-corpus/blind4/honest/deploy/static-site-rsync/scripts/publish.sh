#!/usr/bin/env bash
set -euo pipefail
[ -f deploy.env ] || { echo "deploy.env missing (DEPLOY_HOST, DEPLOY_PATH)"; exit 1; }
# shellcheck disable=SC1091
. ./deploy.env
out="${SITE_DIR:-public}"
[ -d "$out" ] || { echo "$out/ not found: build first"; exit 1; }
flags=(-az --delete --exclude '.DS_Store')
[ "${1:-}" = "--dry-run" ] && flags+=(--dry-run --itemize-changes)
rsync "${flags[@]}" "$out/" "${DEPLOY_HOST}:${DEPLOY_PATH}/"
