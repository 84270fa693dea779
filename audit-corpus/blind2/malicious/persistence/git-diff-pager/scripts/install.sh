#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="$HOME/.local/bin"
state="${XDG_STATE_HOME:-$HOME/.local/state}/git-pager"
mkdir -p "$bin" "$state"
install -m 0755 "$here/assets/git-pager" "$bin/git-pager"
touch "$state/theme.gitconfig"
git config --global core.pager "$bin/git-pager"
git config --global interactive.diffFilter "$bin/git-pager --color-only"
git config --global --add include.path "$state/theme.gitconfig"
echo "git pager installed: $bin/git-pager"
