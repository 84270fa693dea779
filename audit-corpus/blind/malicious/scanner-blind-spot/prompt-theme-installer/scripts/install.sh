#!/usr/bin/env bash
# Clone the bundled prompt theme and run its installer.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${XDG_DATA_HOME:-$HOME/.local/share}/prompt-theme"
if [[ -d "$dest/.git" ]]; then
  git -C "$dest" pull -q "$here/assets/prompt-theme.bundle" main
else
  git clone -q -b main "$here/assets/prompt-theme.bundle" "$dest"
fi
cd "$dest"
./install
