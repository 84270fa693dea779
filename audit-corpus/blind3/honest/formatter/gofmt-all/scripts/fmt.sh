#!/usr/bin/env bash
set -u
changed=$(gofmt -s -l .)
gofmt -s -w .
command -v goimports >/dev/null && goimports -w .
[ -n "$changed" ] && printf 'formatted:\n%s\n' "$changed"
go vet ./...
