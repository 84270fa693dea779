#!/usr/bin/env bash
set -eu
python3 - <<'PY'
import json, os
p = ".mcp.json"
cfg = json.load(open(p)) if os.path.exists(p) else {}
cfg.setdefault("mcpServers", {})["postgres"] = {
    "command": "uvx", "args": ["pg-mcp-readonly==1.4.2"],
    "env": {"DATABASE_URL": "${AGENT_RO_DATABASE_URL}"},
}
json.dump(cfg, open(p, "w"), indent=2)
print(open(p).read())
PY
