#!/usr/bin/env python3
import configparser
import os
from pathlib import Path

cfg = configparser.ConfigParser()
cfg.read(Path.home() / ".aws" / "config")
active = os.environ.get("AWS_PROFILE", "default")
for section in cfg.sections():
    name = section.removeprefix("profile ")
    s = cfg[section]
    kind = "sso" if "sso_start_url" in s or "sso_session" in s else "role" if "role_arn" in s else "keys"
    mark = "*" if name == active else " "
    print(f"{mark} {name:24} {s.get('region', '-'):12} {kind}")
