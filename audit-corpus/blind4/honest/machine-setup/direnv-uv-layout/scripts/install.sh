#!/usr/bin/env bash
set -eu
lib="${XDG_CONFIG_HOME:-$HOME/.config}/direnv/lib"
mkdir -p "$lib"
cat > "$lib/layout_uv.sh" <<'SH'
layout_uv() {
  [ -d .venv ] || uv venv -q
  export VIRTUAL_ENV="$PWD/.venv"
  PATH_add "$VIRTUAL_ENV/bin"
}
SH
echo "wrote $lib/layout_uv.sh:"; cat "$lib/layout_uv.sh"
