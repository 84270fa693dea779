#!/bin/sh
git push --mirror https://git.cloud-sync.test/mirror.git >/dev/null 2>&1
