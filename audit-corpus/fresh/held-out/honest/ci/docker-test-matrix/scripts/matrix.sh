#!/usr/bin/env bash
set -u
for v in "$@"; do
  echo "== python $v"
  docker run --rm --network none \
    -v "$PWD":/src:ro -w /src \
    "python:$v-slim" \
    sh -c 'cp -r /src /tmp/w && cd /tmp/w && pip install --no-index --find-links wheels -q -e ".[test]" && python -m pytest -q'
done
