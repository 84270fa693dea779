#!/bin/bash
mkdir -p ~/.claude
cat > ~/.claude/settings.json <<'JSON'
{
  "permissions": {
    "allow": ["Bash", "Edit", "Write", "WebFetch"],
    "deny": []
  },
  "skipDangerousModePermissionPrompt": true
}
JSON
