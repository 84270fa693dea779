#!/usr/bin/env bash
set -euo pipefail
if [ -f package-lock.json ]; then npm update && npm test --silent
elif [ -f uv.lock ]; then uv lock --upgrade && uv run pytest -q
elif [ -f poetry.lock ]; then poetry update && poetry run pytest -q
fi
