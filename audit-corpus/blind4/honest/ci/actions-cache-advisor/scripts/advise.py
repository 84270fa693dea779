#!/usr/bin/env python3
import sys
from pathlib import Path

try:
    import yaml
except ImportError:
    sys.exit("needs PyYAML: pip install pyyaml")

folder = Path(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows")
for wf in sorted(folder.glob("*.y*ml")):
    doc = yaml.safe_load(wf.read_text()) or {}
    for job, spec in (doc.get("jobs") or {}).items():
        for i, step in enumerate(spec.get("steps") or []):
            uses = str(step.get("uses", ""))
            if uses.startswith("actions/cache"):
                w = step.get("with") or {}
                key = str(w.get("key", ""))
                notes = []
                if "hashFiles" not in key:
                    notes.append("key does not hash a lockfile")
                if "restore-keys" not in w:
                    notes.append("no restore-keys")
                print(f"{wf.name}:{job}:step{i}: {key or '(no key)'}" + (f"  <- {'; '.join(notes)}" if notes else ""))
