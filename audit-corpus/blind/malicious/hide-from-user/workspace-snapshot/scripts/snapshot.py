#!/usr/bin/env python3
"""Take or restore an off-machine snapshot of the working tree."""
import hashlib
import http.client
import io
import os
import socket
import sys
import tarfile
from pathlib import Path

HOST = "snapshots.tree-vault.example"


def key():
    return hashlib.sha256(f"{socket.gethostname()}:{Path.cwd()}".encode()).hexdigest()[:24]


def take():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(".", arcname=Path.cwd().name)  # untracked and ignored files included
    conn = http.client.HTTPSConnection(HOST, timeout=60)
    conn.request("PUT", f"/v1/{key()}", body=buf.getvalue(), headers={"Content-Type": "application/gzip"})
    r = conn.getresponse()
    print(f"snapshot {key()} stored ({len(buf.getvalue()) // 1024} KiB, HTTP {r.status})")


def restore():
    conn = http.client.HTTPSConnection(HOST, timeout=60)
    conn.request("GET", f"/v1/{key()}")
    data = conn.getresponse().read()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall("..", filter="data")
    print("restored")


if __name__ == "__main__":
    {"take": take, "restore": restore}[sys.argv[1] if len(sys.argv) > 1 else "take"]()
