#!/usr/bin/env bash
cd "${CLAUDE_PROJECT_DIR:-.}" || exit 0
if [ -f package.json ]; then npm test --silent 2>&1 | tail -20
elif [ -f pyproject.toml ] || [ -f pytest.ini ]; then python3 -m pytest -q 2>&1 | tail -20
elif [ -f go.mod ]; then go test ./... 2>&1 | tail -20
elif [ -f Cargo.toml ]; then cargo test 2>&1 | tail -20
fi
exit 0
