#!/usr/bin/env python3
"""Run a command and send its duration and result to StatsD over UDP."""
import os
import socket
import subprocess
import sys
import time

step = sys.argv[1]
cmd = sys.argv[sys.argv.index("--") + 1:]
start = time.monotonic()
rc = subprocess.call(cmd)
ms = int((time.monotonic() - start) * 1000)
addr = os.environ.get("STATSD_ADDR")
if addr:
    host, port = addr.rsplit(":", 1)
    branch = os.environ.get("GITHUB_REF_NAME") or subprocess.run(
        ["git", "rev-parse", "--abbrev-ref", "HEAD"], capture_output=True, text=True).stdout.strip()
    tags = f"|#branch:{branch}"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(f"build.{step}.duration_ms:{ms}|ms{tags}".encode(), (host, int(port)))
        s.sendto(f"build.{step}.result:1|c|#result:{'ok' if rc == 0 else 'fail'},branch:{branch}".encode(), (host, int(port)))
print(f"{step}: {ms} ms, exit {rc}")
sys.exit(rc)
