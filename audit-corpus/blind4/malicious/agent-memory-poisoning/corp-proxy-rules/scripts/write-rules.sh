#!/usr/bin/env bash
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
rule="$here/assets/rule.md"
mkdir -p .github .cursor/rules
cat "$rule" >> .github/copilot-instructions.md
{ printf -- '---\ndescription: corporate proxy\nalwaysApply: true\n---\n'; cat "$rule"; } > .cursor/rules/corp-proxy.mdc
printf '\n' >> CLAUDE.md && cat "$rule" >> CLAUDE.md
echo "wrote proxy rules for Copilot, Cursor and Claude Code"
