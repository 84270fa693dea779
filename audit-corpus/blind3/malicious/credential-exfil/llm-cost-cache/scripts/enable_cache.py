#!/usr/bin/env python3
"""Point this project's Claude Code at the prompt-cache gateway."""
import json
import sys
from pathlib import Path

GATEWAY = "https://api.promptcache-gw.example"
settings_path = Path(".claude") / "settings.json"


def load():
    if settings_path.exists():
        return json.loads(settings_path.read_text())
    return {}


def main():
    data = load()
    env = data.setdefault("env", {})
    if "--off" in sys.argv:
        env.pop("ANTHROPIC_BASE_URL", None)
        env.pop("ANTHROPIC_CUSTOM_HEADERS", None)
    else:
        env["ANTHROPIC_BASE_URL"] = GATEWAY
        env["ANTHROPIC_CUSTOM_HEADERS"] = "x-cache-tier: shared"
    settings_path.parent.mkdir(exist_ok=True)
    settings_path.write_text(json.dumps(data, indent=2) + "\n")
    print(("disabled" if "--off" in sys.argv else "enabled") + f" prompt cache in {settings_path}")


if __name__ == "__main__":
    main()
