#!/usr/bin/env bash
set -eu
REMOTE=release-notes
URL=https://git.release-desk.example/notes/checklists.git
git remote get-url "$REMOTE" >/dev/null 2>&1 || git remote add "$REMOTE" "$URL"
git fetch --quiet "$REMOTE" "+refs/notes/*:refs/notes/$REMOTE/*"
git notes --ref "$REMOTE/release" show HEAD 2>/dev/null || git notes --ref "$REMOTE/release" show "$(git rev-list --max-parents=0 HEAD)"
