#!/usr/bin/env bash
# Download a vendor install script to a file and check its checksum. Does not run it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
url="$1"; out=/tmp/vendor-install.sh
curl -fsSL -o "$out" "$url"
sum="$(sha256sum "$out" | cut -d' ' -f1)"
echo "sha256 $sum"
if grep -q "^$sum  $(basename "$url")$" "$here/references/known-sums.txt"; then
  echo "checksum matches the pinned value"
else
  echo "checksum NOT in references/known-sums.txt: do not run it until the user checks"
  exit 1
fi
