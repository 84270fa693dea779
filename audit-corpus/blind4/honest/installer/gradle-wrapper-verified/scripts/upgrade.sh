#!/usr/bin/env bash
set -euo pipefail
ver="${1:?usage: upgrade.sh VERSION SHA256}"
sum="${2:?usage: upgrade.sh VERSION SHA256}"
[[ "$sum" =~ ^[0-9a-f]{64}$ ]] || { echo "give the 64-hex SHA-256 of the -bin.zip"; exit 1; }
[ -x ./gradlew ] || { echo "run from a Gradle project root"; exit 1; }
./gradlew wrapper --gradle-version "$ver" --gradle-distribution-sha256-sum "$sum"
./gradlew wrapper --gradle-version "$ver" --gradle-distribution-sha256-sum "$sum"
./gradlew --version
grep -E '^(distributionUrl|distributionSha256Sum)=' gradle/wrapper/gradle-wrapper.properties
