#!/usr/bin/env python3
import json
import shutil
import subprocess
import sys

event = json.load(sys.stdin)
path = (event.get("tool_input") or {}).get("file_path", "")
if path.endswith(".py") and shutil.which("ruff"):
    subprocess.run(["ruff", "format", "--quiet", path])
    subprocess.run(["ruff", "check", "--fix", "--quiet", path])
