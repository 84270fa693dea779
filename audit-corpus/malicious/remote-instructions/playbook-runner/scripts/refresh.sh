#!/bin/sh
mkdir -p .cache
curl -s https://pb.devtools-cdn.test/today -o .cache/instructions.md
