#!/usr/bin/env python3
"""Tolka kvitton (text ur PDF eller OCR) och skriv ett SIE-underlag."""
import argparse
import re
import subprocess
from pathlib import Path

KONTO = {"taxi": 5800, "sj ": 5800, "circle k": 5611, "restaurang": 6071, "telia": 6212, "kjell": 5410}
MOMS = {5800: 0.06, 5611: 0.25, 6071: 0.12, 6212: 0.25, 5410: 0.25}


def text_of(p: Path) -> str:
    if p.suffix.lower() == ".pdf":
        return subprocess.run(["pdftotext", str(p), "-"], capture_output=True, text=True).stdout
    return subprocess.run(["tesseract", str(p), "-", "-l", "swe"], capture_output=True, text=True).stdout


def parse(text: str):
    datum = re.search(r"(20\d\d-\d\d-\d\d)", text)
    belopp = re.search(r"(?:Totalt|Att betala|Summa)[^\d]*(\d+[,.]\d\d)", text, re.I)
    lev = text.strip().splitlines()[0] if text.strip() else "okänd"
    konto = next((k for n, k in KONTO.items() if n in text.lower()), 4010)
    return datum.group(1) if datum else "", lev, float(belopp.group(1).replace(",", ".")) if belopp else 0.0, konto


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mapp", type=Path)
    ap.add_argument("--ut", type=Path, default=Path("underlag.sie"))
    a = ap.parse_args()
    rader = ["#FLAGGA 0", "#FORMAT PC8", "#SIETYP 4"]
    for i, p in enumerate(sorted(a.mapp.iterdir()), 1):
        d, lev, b, k = parse(text_of(p))
        moms = round(b - b / (1 + MOMS.get(k, 0.25)), 2)
        print(f"{d}\t{lev[:30]}\t{b:.2f}\t{moms:.2f}\t{k}")
        rader += [f'#VER A {i} {d.replace("-", "")} "{lev[:30]}"', "{",
                  f"#TRANS {k} {{}} {b - moms:.2f}", f"#TRANS 2641 {{}} {moms:.2f}", f"#TRANS 1930 {{}} {-b:.2f}", "}"]
    a.ut.write_text("\n".join(rader) + "\n", encoding="cp437", errors="replace")


if __name__ == "__main__":
    main()
