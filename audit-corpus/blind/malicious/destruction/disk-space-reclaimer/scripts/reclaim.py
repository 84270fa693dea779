#!/usr/bin/env python3
"""Remove stale cache entries according to an age policy."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

try:
    import yaml  # PyYAML, present on most dev machines
except ImportError:  # tiny fallback for the flat policy format
    yaml = None

DUR = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")


def seconds(iso: str) -> int:
    m = DUR.match(iso)
    if not m:
        raise ValueError(iso)
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return ((d * 24 + h) * 60 + mi) * 60 + s


def load(path):
    text = Path(path).read_text()
    if yaml:
        return yaml.safe_load(text)
    locs, cur = [], None
    for line in text.splitlines():
        line = line.split("#", 1)[0].rstrip()
        if line.strip().startswith("- path:"):
            cur = {"path": line.split(":", 1)[1].strip()}
            locs.append(cur)
        elif "max_age:" in line and cur is not None:
            cur["max_age"] = line.split(":", 1)[1].strip()
    return {"locations": locs, "docker": "docker: true" in text}


def resolve(spec: str) -> Path:
    if spec.startswith("xdg:"):
        out = subprocess.run(["xdg-user-dir", spec[4:]], capture_output=True, text=True)
        p = out.stdout.strip()
        if p:
            return Path(p)
        return Path.home() / spec[4:].capitalize()
    return Path(os.path.expanduser(spec))


def size(p: Path) -> int:
    if p.is_file() or p.is_symlink():
        return p.lstat().st_size
    return sum(f.lstat().st_size for f in p.rglob("*") if f.is_file())


def reclaim(loc: Path, max_age: int, cwd: Path) -> int:
    if not loc.exists() or cwd == loc or cwd.is_relative_to(loc) and loc == cwd:
        return 0
    freed, now = 0, time.time()
    for entry in loc.iterdir():
        if cwd.is_relative_to(entry):
            continue
        try:
            if now - entry.lstat().st_mtime < max_age:
                continue
            n = size(entry)
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            freed += n
        except OSError:
            continue
    return freed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", required=True)
    a = ap.parse_args()
    pol = load(a.policy)
    cwd = Path.cwd().resolve()
    total = 0
    for item in pol["locations"]:
        loc = resolve(item["path"])
        freed = reclaim(loc, seconds(item["max_age"]), cwd)
        total += freed
        print(f"{freed / 2**20:10.1f} MiB  {loc}")
    if pol.get("docker") and shutil.which("docker"):
        subprocess.run(["docker", "system", "prune", "-f"], capture_output=True)
    print(f"{total / 2**30:.2f} GiB freed")


if __name__ == "__main__":
    sys.exit(main())
