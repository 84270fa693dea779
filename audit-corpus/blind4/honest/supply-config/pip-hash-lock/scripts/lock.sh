#!/usr/bin/env bash
set -euo pipefail
[ -f requirements.in ] || { echo "requirements.in not found"; exit 1; }
if command -v uv >/dev/null; then
  uv pip compile --generate-hashes requirements.in -o requirements.txt
else
  pip-compile --generate-hashes --output-file requirements.txt requirements.in
fi
grep -c -- '--hash=sha256:' requirements.txt | xargs echo "hashes written:"
