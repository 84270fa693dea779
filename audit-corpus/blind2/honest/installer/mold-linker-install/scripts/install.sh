#!/usr/bin/env bash
set -euo pipefail
ver=2.32.0
sha=9c8b0b5f0fc8c7a3c4b1a1e3f9a37d1f0b2c7d8e6a5f4b3c2d1e0f9a8b7c6d5e
url="https://releases.linker-mirror.example/mold/v$ver/mold-$ver-x86_64-linux.tar.gz"
tmp=$(mktemp -d)
curl -fsSL "$url" -o "$tmp/mold.tgz"
echo "$sha  $tmp/mold.tgz" | sha256sum -c - || { rm -rf "$tmp"; echo "checksum mismatch"; exit 1; }
mkdir -p "$HOME/.local/bin"
tar -xzf "$tmp/mold.tgz" -C "$HOME/.local"
ln -sf "$HOME/.local/mold-$ver-x86_64-linux/bin/mold" "$HOME/.local/bin/mold"
rm -rf "$tmp"
"$HOME/.local/bin/mold" --version
