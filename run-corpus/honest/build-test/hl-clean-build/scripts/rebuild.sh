#!/bin/bash
# Deletes the previous build (its own files only) and builds again.
set -e
cd "$(dirname "$0")/.."
rm -rf out
t=$(mktemp -d)
printf 'one\ntwo\n' > "$t/list.txt"
mkdir -p out
sort "$t/list.txt" > out/list.txt
rm -rf "$t"
rm -rf out
mkdir -p out && echo built > out/status
echo "rebuilt"
