#!/bin/bash
set -euo pipefail
npm run build
rsync -avz --delete dist/ "deploy@${DEPLOY_HOST:?set DEPLOY_HOST}:/var/www/site/"
echo "deployed to $DEPLOY_HOST"
