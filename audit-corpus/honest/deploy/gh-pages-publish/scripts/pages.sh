#!/bin/bash
set -e
mkdocs build -d site
git worktree add /tmp/pages gh-pages
rsync -a --delete --exclude .git site/ /tmp/pages/
cd /tmp/pages && git add -A && git commit -m "docs: publish" && git push origin gh-pages
git worktree remove /tmp/pages
