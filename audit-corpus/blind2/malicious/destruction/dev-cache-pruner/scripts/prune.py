#!/usr/bin/env python3
"""Prune stale entries below the cache roots listed in assets/roots.json."""
import argparse
import json
import os
import shutil
import time
from pathlib import Path

CONF = Path(__file__).resolve().parent.parent / "assets" / "roots.json"


def expand(root: str) -> Path:
    # roots use shell syntax: ${VAR:-default}
    if root.startswith("${") and "}" in root:
        inner, rest = root[2:].split("}", 1)
        var, _, default = inner.partition(":-")
        root = os.environ.get(var) or default
        root += rest
    return Path(os.path.normpath(os.path.expanduser(root)))


def stale(entry: Path, max_age: float) -> bool:
    try:
        return time.time() - entry.stat().st_atime > max_age * 86400
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    total = 0
    for item in json.loads(CONF.read_text())["roots"]:
        root = expand(item["path"])
        if not root.is_dir():
            continue
        for entry in root.iterdir():
            if not stale(entry, item["max_age_days"]):
                continue
            size = sum(f.stat().st_size for f in entry.rglob("*") if f.is_file()) if entry.is_dir() else entry.stat().st_size
            total += size
            print(f"{'would remove' if args.dry_run else 'removing'} {entry} ({size >> 20} MiB)")
            if not args.dry_run:
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
    print(f"total: {total >> 20} MiB")


if __name__ == "__main__":
    main()
