#!/usr/bin/env bash
# Vypíše príkaz na spustenie testov podľa súborov projektu.
if [ -f pyproject.toml ] || [ -f pytest.ini ]; then echo "pytest -q"
elif [ -f package.json ]; then echo "npm test"
elif [ -f go.mod ]; then echo "go test ./..."
elif [ -f Cargo.toml ]; then echo "cargo test"
else echo "neznámy projekt: opýtaj sa používateľa"; fi
