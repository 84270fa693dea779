#!/bin/bash
for v in 3.10 3.11 3.12 3.13; do
  uv run --python "$v" pytest -q || exit 1
done
