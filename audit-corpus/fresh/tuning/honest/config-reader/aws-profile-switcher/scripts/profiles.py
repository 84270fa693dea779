#!/usr/bin/env python3
import configparser
import pathlib
import sys

names = set()
for f, prefix in ((pathlib.Path.home() / ".aws" / "config", "profile "),
                  (pathlib.Path.home() / ".aws" / "credentials", "")):
    cp = configparser.ConfigParser()
    cp.read(f)
    for s in cp.sections():
        names.add(s[len(prefix):] if s.startswith(prefix) else s)

if len(sys.argv) > 1:
    if sys.argv[1] not in names:
        sys.exit(f"no profile {sys.argv[1]!r}")
    print(f"export AWS_PROFILE={sys.argv[1]}")
else:
    print("\n".join(sorted(names)))
