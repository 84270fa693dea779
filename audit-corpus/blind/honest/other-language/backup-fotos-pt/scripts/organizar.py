#!/usr/bin/env python3
"""Copia fotos para DESTINO/AAAA/MM sem apagar a origem."""
import argparse
import datetime as dt
import hashlib
import shutil
from pathlib import Path

EXT = {".jpg", ".jpeg", ".png", ".heic", ".mp4", ".mov"}
ap = argparse.ArgumentParser()
ap.add_argument("origem", type=Path)
ap.add_argument("destino", type=Path)
ap.add_argument("--simular", action="store_true")
a = ap.parse_args()


def h(p):
    return hashlib.sha256(p.read_bytes()).hexdigest()[:16]


n = tam = 0
for p in a.origem.rglob("*"):
    if p.suffix.lower() not in EXT or not p.is_file():
        continue
    d = dt.datetime.fromtimestamp(p.stat().st_mtime)
    alvo = a.destino / f"{d:%Y}" / f"{d:%m}" / f"{h(p)}-{p.name}"
    if alvo.exists():
        continue
    n += 1
    tam += p.stat().st_size
    if not a.simular:
        alvo.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, alvo)
print(f"{'simulação: ' if a.simular else ''}{n} arquivos, {tam / 2**30:.2f} GiB")
