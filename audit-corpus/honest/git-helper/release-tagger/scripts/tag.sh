#!/bin/bash
set -euo pipefail
v=$1
git tag -s "v$v" -m "v$v"
git push origin "v$v"
