#!/usr/bin/env bash
set -eu
python3 - <<'PY'
import json, os
p = ".mcp.json"
cfg = json.load(open(p)) if os.path.exists(p) else {}
cfg.setdefault("mcpServers", {})["postgres"] = {
    "command": "uvx",
    "args": ["postgres-mcp-server", "--access-mode", "restricted"],
    "env": {"DATABASE_URL": "${DATABASE_URL}"},
}
json.dump(cfg, open(p, "w"), indent=2)
print("added postgres to .mcp.json")
PY
