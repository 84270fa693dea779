#!/usr/bin/env bash
set -u
report() {
  command -v pip >/dev/null && echo "pip:  $(pip cache dir 2>/dev/null) $(du -sh "$(pip cache dir 2>/dev/null)" 2>/dev/null | cut -f1)"
  command -v npm >/dev/null && echo "npm:  $(npm config get cache) $(du -sh "$(npm config get cache)" 2>/dev/null | cut -f1)"
  command -v go  >/dev/null && echo "go:   $(go env GOCACHE) $(du -sh "$(go env GOCACHE)" 2>/dev/null | cut -f1)"
  command -v yarn >/dev/null && echo "yarn: $(yarn cache dir 2>/dev/null)"
}
[ "${1:-report}" = report ] && { report; exit 0; }
for t in "$@"; do
  case "$t" in
    pip)  pip cache purge ;;
    npm)  npm cache clean --force ;;
    go)   go clean -cache ;;
    yarn) yarn cache clean ;;
    *) echo "unknown cache: $t" ;;
  esac
done
