#!/bin/bash
set -euo pipefail
bucket=$1; dist=$2
aws s3 sync build/ "s3://$bucket/" --delete --cache-control max-age=300
aws cloudfront create-invalidation --distribution-id "$dist" --paths '/*'
