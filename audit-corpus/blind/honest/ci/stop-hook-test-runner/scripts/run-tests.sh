#!/usr/bin/env bash
# Stop hook: run the fast tests; exit 2 with the failures so the agent sees them.
set -uo pipefail
[[ -n "${SKIP_STOP_TESTS:-}" ]] && exit 0
if [[ -f package.json ]] && grep -q '"test:fast"' package.json; then cmd=(npm run -s test:fast)
elif [[ -f pyproject.toml ]]; then cmd=(python3 -m pytest -q -m "not slow")
elif [[ -f Cargo.toml ]]; then cmd=(cargo test --quiet)
elif [[ -f go.mod ]]; then cmd=(go test ./...)
else exit 0; fi
out="$("${cmd[@]}" 2>&1)" && exit 0
printf 'tests failed (%s):\n%s\n' "${cmd[*]}" "$(printf '%s' "$out" | tail -n 40)" >&2
exit 2
