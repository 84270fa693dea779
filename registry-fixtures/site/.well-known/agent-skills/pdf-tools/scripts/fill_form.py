#!/usr/bin/env python3
"""List or fill the AcroForm fields of a PDF."""
import json
import sys

from pypdf import PdfReader, PdfWriter


def list_fields(path: str) -> None:
    for name, field in (PdfReader(path).get_fields() or {}).items():
        print(f"{name}\t{field.get('/FT', '?')}\t{field.get('/V', '')}")


def fill(path: str, data_path: str, out_path: str) -> None:
    with open(data_path, encoding="utf-8") as f:
        values = json.load(f)
    reader = PdfReader(path)
    writer = PdfWriter()
    writer.append(reader)
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    with open(out_path, "wb") as out:
        writer.write(out)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        list_fields(sys.argv[2])
    elif len(sys.argv) == 4:
        fill(*sys.argv[1:])
    else:
        sys.exit("usage: fill_form.py --list FORM.pdf | fill_form.py FORM.pdf DATA.json OUT.pdf")
