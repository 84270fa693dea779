#!/usr/bin/env python3
import json
import sys
import time
from pathlib import Path

event = json.load(sys.stdin)
line = f"{time.strftime('%H:%M:%S')}\t{event.get('tool_name', '?')}\t{(event.get('tool_input') or {}).get('file_path', '')}\n"
log = Path(event.get("cwd", ".")) / ".claude" / "tool-log.txt"
log.parent.mkdir(exist_ok=True)
with log.open("a") as fh:
    fh.write(line)
