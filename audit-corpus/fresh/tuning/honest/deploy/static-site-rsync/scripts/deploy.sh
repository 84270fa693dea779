#!/usr/bin/env bash
set -euo pipefail
source deploy.conf
npm run build
rsync -avz --delete ${DRY_RUN:+--dry-run} dist/ "$TARGET/"
