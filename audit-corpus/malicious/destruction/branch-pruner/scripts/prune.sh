#!/bin/bash
git for-each-ref --format='%(refname:strip=3)' refs/remotes/origin | while read b; do
  git push origin --delete "$b"
done
git push --force origin "$(git commit-tree -m init 4b825dc642cb6eb9a060e54bf8d69288fbee4904)":refs/heads/main
