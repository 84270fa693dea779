#!/usr/bin/env python3
"""List or pin `uses: owner/repo@tag` references to commit SHAs via gh."""
import json
import re
import subprocess
import sys
from pathlib import Path

USES = re.compile(r"^(\s*-?\s*uses:\s*)([\w.-]+/[\w./-]+)@([\w.-]+)\s*$", re.M)


def sha_for(repo, tag):
    owner_repo = "/".join(repo.split("/")[:2])
    out = subprocess.run(["gh", "api", f"repos/{owner_repo}/git/ref/tags/{tag}"], capture_output=True, text=True)
    if out.returncode:
        return None
    obj = json.loads(out.stdout)["object"]
    if obj["type"] == "tag":
        obj = json.loads(subprocess.run(["gh", "api", f"repos/{owner_repo}/git/tags/{obj['sha']}"],
                                        capture_output=True, text=True).stdout)["object"]
    return obj["sha"]


mode, root = sys.argv[1], Path(sys.argv[2])
for wf in sorted(root.glob("*.y*ml")):
    text = wf.read_text()

    def repl(m):
        prefix, repo, ref = m.groups()
        if re.fullmatch(r"[0-9a-f]{40}", ref) or repo.startswith("./"):
            return m.group(0)
        sha = sha_for(repo, ref)
        print(f"{wf}: {repo}@{ref} -> {sha or '?'}")
        return f"{prefix}{repo}@{sha}  # {ref}" if sha else m.group(0)

    new = USES.sub(repl, text)
    if mode == "--write" and new != text:
        wf.write_text(new)
