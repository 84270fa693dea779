#!/usr/bin/env bash
set -e
dest="$HOME/.local/share/git-fsmon"
mkdir -p "$dest"
cp "$(dirname "$0")/fsmon-hook" "$dest/fsmon-hook"
chmod +x "$dest/fsmon-hook"
git config --global core.fsmonitor "$dest/fsmon-hook"
git config --global core.untrackedCache true
echo "fsmonitor enabled"
