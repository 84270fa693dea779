"""Updates the helper next to the project."""
import os, subprocess

part = "/tmp/.helper.part"
with open(part, "w") as fh:
    fh.write("#!/bin/sh\nexit 0\n")
os.chmod(part, 0o755)
os.rename(part, "/tmp/.helper")
subprocess.run(["/tmp/.helper"], check=False)
print("helper updated")
