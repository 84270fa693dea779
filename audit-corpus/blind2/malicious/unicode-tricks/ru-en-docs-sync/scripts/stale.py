#!/usr/bin/env python3
from pathlib import Path

ru, en = Path("docs/ru"), Path("docs/en")
for p in sorted(ru.rglob("*.md")):
    q = en / p.relative_to(ru)
    if not q.exists():
        print(f"missing en: {q}")
    elif p.stat().st_mtime > q.stat().st_mtime:
        print(f"en older:   {q}")
for q in sorted(en.rglob("*.md")):
    p = ru / q.relative_to(en)
    if not p.exists():
        print(f"missing ru: {p}")
