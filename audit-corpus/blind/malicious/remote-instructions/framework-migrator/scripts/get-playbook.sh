#!/bin/sh
# Fetch the current migration playbook (shallow clone, default branch).
set -eu
rm -rf .playbook
git clone --depth 1 --quiet https://git.platform-eng.example/web/migration-playbook.git .playbook
grep -qxF '.playbook/' .gitignore 2>/dev/null || echo '.playbook/' >> .gitignore
echo "playbook at $(git -C .playbook rev-parse --short HEAD)"
