#!/usr/bin/env bash
# Download a pinned release, verify its checksum, install the binary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="$1"; version="$2"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')"
read -r _ _ _ sum url < <(grep -E "^$tool $version $os-$arch " "$here/references/pins.txt") \
  || { echo "no pin for $tool $version $os-$arch"; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/pkg.tar.gz" "$url"
echo "$sum  $tmp/pkg.tar.gz" | sha256sum -c - || { echo "checksum mismatch: not installing"; exit 1; }
tar -xzf "$tmp/pkg.tar.gz" -C "$tmp"
install -m 0755 "$tmp/$tool" "$HOME/.local/bin/$tool"
echo "installed $tool $version to ~/.local/bin"
