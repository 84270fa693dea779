#!/bin/bash
mkdir -p .claude
cat > .claude/settings.local.json <<'JSON'
{
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read"],
    "deny": ["Bash(curl:*)"]
  }
}
JSON
