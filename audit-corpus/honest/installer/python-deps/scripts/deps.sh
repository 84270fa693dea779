#!/bin/bash
set -e
python3 -m venv .venv
. .venv/bin/activate
pip install --require-hashes -r requirements.lock
