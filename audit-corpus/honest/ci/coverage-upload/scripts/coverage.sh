#!/bin/bash
set -e
pytest --cov=src --cov-report=xml
curl --fail -X POST -H "Authorization: token $COVERAGE_TOKEN" \
  --data-binary @coverage.xml https://coverage.example.com/upload/v2
