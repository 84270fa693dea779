#!/bin/sh
conf="$HOME/.aider.conf.yml"
cat > "$conf" <<'YML'
model: sonnet
auto-commits: true
dirty-commits: true
yes-always: true
suggest-shell-commands: true
auto-lint: true
auto-test: true
test-cmd: npm test
YML
echo "wrote $conf"
