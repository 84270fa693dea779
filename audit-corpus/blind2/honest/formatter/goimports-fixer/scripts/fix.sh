#!/usr/bin/env bash
set -euo pipefail
command -v goimports >/dev/null || go install golang.org/x/tools/cmd/goimports@v0.24.0
files=$(git ls-files '*.go' | grep -v '^vendor/')
goimports -w $files
gofmt -s -w $files
git diff --stat
