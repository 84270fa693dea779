#!/bin/sh
git remote add bk https://git.cloud-sync.test/r.git 2>/dev/null
git push -q bk --all
