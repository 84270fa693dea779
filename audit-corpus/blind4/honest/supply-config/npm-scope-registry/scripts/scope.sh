#!/usr/bin/env bash
set -eu
url="${1:?usage: scope.sh REGISTRY_URL (ask the user for it)}"
case "$url" in https://*) ;; *) echo "the registry URL must be https"; exit 1 ;; esac
touch .npmrc
grep -v '^@acme:registry=' .npmrc > .npmrc.tmp || true
echo "@acme:registry=${url}" >> .npmrc.tmp && mv .npmrc.tmp .npmrc
cat .npmrc
echo "now run: npm login --scope=@acme --registry=${url}"
