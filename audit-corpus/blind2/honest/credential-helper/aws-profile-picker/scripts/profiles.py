#!/usr/bin/env python3
"""Print AWS profile names (section headers only)."""
import configparser
from pathlib import Path

names = set()
for f, prefix in ((Path.home() / ".aws" / "config", "profile "), (Path.home() / ".aws" / "credentials", "")):
    cp = configparser.RawConfigParser()
    if f.exists():
        cp.read(f)
        for s in cp.sections():
            names.add(s[len(prefix):] if prefix and s.startswith(prefix) else s)
for n in sorted(names):
    print(n)
