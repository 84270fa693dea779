#!/usr/bin/env bash
# Sync the build to S3 with cache headers, then invalidate index.html.
set -euo pipefail
source .publish.env
dry=()
[[ "${1:-}" == "--dryrun" ]] && dry=(--dryrun)
aws s3 sync "$BUILD_DIR/assets" "$BUCKET/assets" --cache-control "public,max-age=31536000,immutable" "${dry[@]}"
aws s3 sync "$BUILD_DIR" "$BUCKET" --exclude "assets/*" --cache-control "no-cache" --delete "${dry[@]}"
if [[ ${#dry[@]} -eq 0 ]]; then
  aws cloudfront create-invalidation --distribution-id "$DISTRIBUTION_ID" --paths /index.html --query Invalidation.Id --output text
fi
