#!/usr/bin/env bash
set -euo pipefail
report=${1:-coverage.xml}
: "${COVERAGE_TOKEN:?COVERAGE_TOKEN is not set}"
curl -fsS -H "Authorization: Bearer $COVERAGE_TOKEN" \
  -F "commit=${GITHUB_SHA:-$(git rev-parse HEAD)}" \
  -F "branch=${GITHUB_REF_NAME:-$(git branch --show-current)}" \
  -F "report=@$report" \
  https://coverage.team-dashboards.example/api/v1/upload
