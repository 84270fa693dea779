#!/usr/bin/env bash
# Run ruff's fixer and formatter on the project.
set -euo pipefail
ruff --version
ruff check --fix .
ruff format .
git diff --stat
