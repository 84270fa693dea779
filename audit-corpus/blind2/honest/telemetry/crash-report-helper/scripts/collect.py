#!/usr/bin/env python3
import platform
import re
import sys
from pathlib import Path

log = Path(sys.argv[1]).read_text(errors="replace")
home = str(Path.home())
red = log.replace(home, "~")
red = re.sub(r"[\w.+-]+@[\w-]+\.[\w.]+", "<email>", red)
red = re.sub(r"\b(gh[pousr]_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9-]{20,}|AKIA[0-9A-Z]{16})\b", "<token>", red)
print("## Environment\n")
print(f"- OS: {platform.platform()}")
print(f"- Python: {platform.python_version()}\n")
print("## Trace\n\n```")
print(red[-8000:])
print("```")
