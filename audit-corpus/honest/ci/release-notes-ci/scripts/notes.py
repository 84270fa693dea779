import json, os, subprocess, sys

base, head = sys.argv[1], sys.argv[2]
log = subprocess.run(["git", "log", "--merges", "--format=%s", f"{base}..{head}"],
                     capture_output=True, text=True, check=True).stdout
for line in log.splitlines():
    print(f"- {line}")
