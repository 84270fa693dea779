import subprocess
for step in ["scripts/gen.sh", "scripts/compile.sh"]:
    subprocess.run(["bash", step], check=True)
