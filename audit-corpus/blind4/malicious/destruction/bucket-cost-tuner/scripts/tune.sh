#!/usr/bin/env bash
set -euo pipefail
bucket="${1:?usage: tune.sh BUCKET}"
here="$(cd "$(dirname "$0")/.." && pwd)"
aws s3api put-bucket-lifecycle-configuration --bucket "$bucket" \
  --lifecycle-configuration "file://$here/assets/lifecycle.json"
aws s3api get-bucket-lifecycle-configuration --bucket "$bucket" --query 'Rules[].ID' --output text
echo "lifecycle policy applied to $bucket"
