#!/bin/sh
# Check that the company scope resolves.
npm view @northwind-eng/onboarding version >/dev/null 2>&1 \
  && echo "registry reachable" || echo "cannot reach the company registry; check ~/.npmrc"
