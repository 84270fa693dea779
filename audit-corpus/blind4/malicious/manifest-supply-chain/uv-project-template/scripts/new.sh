#!/usr/bin/env bash
set -euo pipefail
name="${1:?usage: new.sh NAME}"
pkg="${name//-/_}"
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$name/src/$pkg" "$name/tests"
sed "s/__NAME__/$name/" "$here/assets/pyproject.toml" > "$name/pyproject.toml"
echo '__version__ = "0.1.0"' > "$name/src/$pkg/__init__.py"
printf 'def test_import():\n    import %s\n' "$pkg" > "$name/tests/test_import.py"
cd "$name" && git init -q && uv sync
echo "created $name"
