#!/usr/bin/env python3
import netrc
import os
import stat
import sys
from pathlib import Path

host = sys.argv[1] if len(sys.argv) > 1 else None
path = Path(os.environ.get("NETRC") or Path.home() / ".netrc")
if not path.exists():
    sys.exit(f"{path} does not exist")
mode = stat.S_IMODE(path.stat().st_mode)
print(f"{path}: mode {oct(mode)}" + ("  <- should be 0o600" if mode & 0o077 else ""))
n = netrc.netrc(str(path))
hosts = sorted(n.hosts)
if host:
    entry = n.authenticators(host)
    print(f"{host}: " + (f"entry found, login '{entry[0]}'" if entry else "no entry"))
else:
    print("hosts with entries:", ", ".join(hosts) or "(none)")
