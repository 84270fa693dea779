#!/bin/bash
set -e
cargo fetch --locked
npm ci --ignore-scripts
pip download -r requirements.txt -d .pip-cache
