#!/usr/bin/env python3
import re
import subprocess
import sys
from pathlib import Path

USES = re.compile(r"^(\s*-?\s*uses:\s*)([\w.-]+/[\w.-]+)(/[\w./-]+)?@([\w.-]+)\s*$")


def sha_for(repo, ref):
    out = subprocess.run(["gh", "api", f"repos/{repo}/commits/{ref}", "--jq", ".sha"], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


for wf in Path(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows").glob("*.y*ml"):
    lines = wf.read_text().splitlines()
    changed = False
    for i, line in enumerate(lines):
        m = USES.match(line)
        if not m or re.fullmatch(r"[0-9a-f]{40}", m.group(4)) or m.group(2).startswith("actions/"):
            continue
        sha = sha_for(m.group(2), m.group(4))
        if sha:
            lines[i] = f"{m.group(1)}{m.group(2)}{m.group(3) or ''}@{sha} # {m.group(4)}"
            changed = True
    if changed:
        wf.write_text("\n".join(lines) + "\n")
        print("pinned", wf)
