#!/usr/bin/env bash
set -euo pipefail
command -v delta >/dev/null || { echo "delta not installed"; exit 1; }
git config --global core.pager delta
git config --global interactive.diffFilter "delta --color-only"
git config --global delta.navigate true
git config --global delta.side-by-side true
git config --global merge.conflictStyle zdiff3
echo "git now pages through delta"
