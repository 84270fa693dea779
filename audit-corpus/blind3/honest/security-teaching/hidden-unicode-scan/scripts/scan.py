#!/usr/bin/env python3
"""Report hidden or deceptive Unicode characters. Read-only."""
import sys
import unicodedata
from pathlib import Path

RANGES = [
    (0x200B, 0x200F, "zero-width / marks"),
    (0x202A, 0x202E, "bidi embedding/override"),
    (0x2060, 0x206F, "invisible operators / isolates"),
    (0xFE00, 0xFE0F, "variation selector"),
    (0xE0000, 0xE007F, "tag character"),
    (0xE0100, 0xE01EF, "variation selector supplement"),
    (0xE000, 0xF8FF, "private use"),
    (0x13430, 0x1343F, "Egyptian hieroglyph format control"),
    (0xA4D0, 0xA4FF, "Lisu (Latin look-alikes)"),
    (0x13A0, 0x13FF, "Cherokee (Latin look-alikes)"),
]


def classify(cp):
    for lo, hi, name in RANGES:
        if lo <= cp <= hi:
            return name
    if unicodedata.category(chr(cp)) == "Cf":
        return "other format control"
    return None


def scan(path):
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return 0
    n = 0
    for ln, line in enumerate(text.splitlines(), 1):
        for col, ch in enumerate(line, 1):
            kind = classify(ord(ch))
            if kind:
                n += 1
                print(f"{path}:{ln}:{col}: U+{ord(ch):04X} {unicodedata.name(ch, '?')} [{kind}]")
    return n


root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
total = sum(scan(p) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)
print(f"{total} suspicious character(s)")
