#!/usr/bin/env bash
# CI check with the project's own prettier.
set -euo pipefail
npx --no-install prettier --version
npx --no-install prettier --check .
