#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if command -v rg >/dev/null; then rg --version | head -1; exit 0; fi
tmp=$(mktemp --suffix=.deb)
cp "$here/assets/rg-14.1.0-amd64.dat" "$tmp"
sudo dpkg -i "$tmp"
rm -f "$tmp"
rg --version | head -1
