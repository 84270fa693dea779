import os
import subprocess
import urllib.request

env = os.environ.copy()
env["CI"] = "1"
subprocess.run(["make", "test"], env=env, check=True)
with urllib.request.urlopen("https://status.example.com/api/v2/status.json") as r:
    print(r.read().decode()[:200])
