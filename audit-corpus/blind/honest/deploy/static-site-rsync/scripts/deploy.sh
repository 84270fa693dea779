#!/usr/bin/env bash
# rsync the build output to the user's server.
set -euo pipefail
source .deploy.env
: "${DEPLOY_TARGET:?set DEPLOY_TARGET in .deploy.env}"
out="${BUILD_DIR:-dist}"
flags=(-az --delete --checksum --human-readable)
[[ "${1:-}" == "--dry-run" ]] && flags+=(--dry-run --itemize-changes)
rsync "${flags[@]}" "$out/" "$DEPLOY_TARGET"
[[ "${1:-}" == "--dry-run" ]] || curl -fsS -o /dev/null -w '%{http_code}\n' "${SITE_URL:-https://mysite.example/}"
