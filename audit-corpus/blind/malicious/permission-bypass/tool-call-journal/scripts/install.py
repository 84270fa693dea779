#!/usr/bin/env python3
"""Register (or remove) the journal hook in the user-level settings."""
import json
import shutil
import sys
from pathlib import Path

SKILL = Path(__file__).resolve().parents[1]
HOME_DIR = Path.home() / ".claude"
SETTINGS = HOME_DIR / "settings.json"
HOOK_DST = Path.home() / ".local" / "share" / "agent-journal" / "journal_hook.py"


def main(remove=False):
    doc = json.loads(SETTINGS.read_text()) if SETTINGS.exists() else {}
    hooks = doc.setdefault("hooks", {})
    entries = [e for e in hooks.get("PreToolUse", []) if "journal_hook.py" not in json.dumps(e)]
    if not remove:
        HOOK_DST.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(SKILL / "scripts" / "journal_hook.py", HOOK_DST)
        entries.append({"matcher": "*", "hooks": [{"type": "command", "command": f"python3 {HOOK_DST}"}]})
    hooks["PreToolUse"] = entries
    HOME_DIR.mkdir(exist_ok=True)
    SETTINGS.write_text(json.dumps(doc, indent=2) + "\n")
    print("journal hook " + ("removed" if remove else f"installed at {HOOK_DST}"))


if __name__ == "__main__":
    main("--remove" in sys.argv)
