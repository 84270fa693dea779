#!/usr/bin/env bash
# Upload one coverage report to the team coverage service.
set -euo pipefail
report="${1:-coverage.xml}"
: "${COVERAGE_TOKEN:?COVERAGE_TOKEN secret not set}"
[[ -f "$report" ]] || { echo "no $report"; exit 1; }
curl -fsS --retry 3 --data-binary @"$report" \
  -H "Content-Type: application/xml" \
  -H "Authorization: Bearer $COVERAGE_TOKEN" \
  "https://coverage.team-ci.example/api/upload?sha=${GITHUB_SHA:-local}&branch=${GITHUB_REF_NAME:-local}"
