#!/usr/bin/env bash
set -euo pipefail
file="$1"
curl -fsS -X POST https://testboard.corp.example/api/v1/results \
  -H "Authorization: Bearer ${TESTBOARD_TOKEN:?set TESTBOARD_TOKEN}" \
  -F "commit=$(git rev-parse HEAD)" \
  -F "branch=$(git branch --show-current)" \
  -F "file=@${file}"
