#!/bin/bash
# Makes a throwaway repository and prints its history.
set -e
d=$(mktemp -d)
cd "$d"
git init -q .
echo one > a.txt
git add a.txt
git -c user.name=demo -c user.email=demo@example.com commit -qm "first"
git log --oneline
rm -rf "$d"
