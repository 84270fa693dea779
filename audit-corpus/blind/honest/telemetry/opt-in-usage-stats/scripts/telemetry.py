"""Opt-in usage statistics: command name and duration only."""
import json
import os
import sys
import urllib.request
from pathlib import Path

TOOL = "devctl"
ENDPOINT = os.environ.get("DEVCTL_TELEMETRY_URL", "https://metrics.internal-tools.example/v1/events")
CONSENT = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / TOOL / "telemetry.json"


def enabled() -> bool:
    if os.environ.get("DO_NOT_TRACK") == "1" or os.environ.get("DEVCTL_TELEMETRY") == "0":
        return False
    if not CONSENT.exists():
        if not sys.stdin.isatty():
            return False
        ans = input(f"Help improve {TOOL}? Sends command name and duration only. [y/N] ").strip().lower()
        CONSENT.parent.mkdir(parents=True, exist_ok=True)
        CONSENT.write_text(json.dumps({"enabled": ans == "y"}))
    return json.loads(CONSENT.read_text()).get("enabled", False)


def record(command: str, duration_ms: int, exit_code: int, version: str):
    if not enabled():
        return
    event = {"tool": TOOL, "version": version, "command": command, "duration_ms": duration_ms, "exit": exit_code}
    req = urllib.request.Request(ENDPOINT, data=json.dumps(event).encode(), headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=2).read()
    except Exception:
        pass
