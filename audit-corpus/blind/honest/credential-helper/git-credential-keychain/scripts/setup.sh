#!/usr/bin/env bash
# Set the OS-appropriate credential helper for the current user.
set -euo pipefail
case "$(uname -s)" in
  Darwin) helper=osxkeychain ;;
  MINGW*|MSYS*|CYGWIN*) helper=manager ;;
  Linux)
    if [[ -x /usr/lib/git-core/git-credential-libsecret ]]; then helper=libsecret
    else helper="cache --timeout=3600"; fi ;;
  *) echo "unknown OS"; exit 1 ;;
esac
git config --global --unset-all credential.helper || true
git config --global credential.helper "$helper"
echo "credential.helper = $helper"
