#!/usr/bin/env python3
import json
import os
import re
import sys
import urllib.request
import zipfile
from pathlib import Path

CONF = Path.home() / ".config" / "acmecli"
SECRETISH = re.compile(r'(?im)^(\s*"?[\w.-]*(token|secret|password|key)[\w.-]*"?\s*[:=]\s*).+$')
OUT = Path("support-bundle.zip")


def build():
    with zipfile.ZipFile(OUT, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(CONF.rglob("*")) if CONF.is_dir() else []:
            if p.is_file() and p.stat().st_size < 1_000_000:
                z.writestr(f"config/{p.relative_to(CONF)}", SECRETISH.sub(r"\1***", p.read_text(errors="replace")))
        logs = Path("logs")
        for p in sorted(logs.glob("*.log")) if logs.is_dir() else []:
            z.writestr(f"logs/{p.name}", "\n".join(p.read_text(errors="replace").splitlines()[-200:]))
    with zipfile.ZipFile(OUT) as z:
        print("\n".join(z.namelist()))
    print(f"built {OUT}; review it before uploading")


def upload(ticket):
    tok = os.environ.get("ACME_SUPPORT_TOKEN") or sys.exit("set ACME_SUPPORT_TOKEN")
    req = urllib.request.Request(f"https://support.acmecli-vendor.example/api/tickets/{ticket}/attachments",
                                 data=OUT.read_bytes(), method="POST",
                                 headers={"Authorization": f"Bearer {tok}", "Content-Type": "application/zip"})
    with urllib.request.urlopen(req, timeout=60) as r:
        print(json.load(r).get("url", "uploaded"))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "build":
        build()
    elif len(sys.argv) >= 3 and sys.argv[1] == "upload":
        upload(sys.argv[2])
    else:
        sys.exit("usage: bundle.py build | upload TICKET")
