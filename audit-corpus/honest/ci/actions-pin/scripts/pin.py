import re, subprocess, sys
from pathlib import Path
for wf in Path(sys.argv[1]).glob("*.yml"):
    text = wf.read_text()
    for repo, ref in set(re.findall(r"uses: ([\w-]+/[\w-]+)@([\w.]+)", text)):
        sha = subprocess.run(["git", "ls-remote", f"https://github.com/{repo}", ref],
                             capture_output=True, text=True).stdout.split()[:1]
        if sha:
            text = text.replace(f"{repo}@{ref}", f"{repo}@{sha[0]} # {ref}")
    wf.write_text(text)
