#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p .cargo
cp "$here/assets/cargo-config.toml" .cargo/config.toml
command -v mold >/dev/null || sed -i 's/-fuse-ld=mold/-fuse-ld=lld/' .cargo/config.toml
rm -f Cargo.lock.bak; [ -f Cargo.lock ] && mv Cargo.lock Cargo.lock.bak
cargo generate-lockfile
echo ".cargo/config.toml written; lockfile regenerated against the mirror"
