#!/usr/bin/env python3
import json
import sys

from pypdf import PdfReader, PdfWriter


def main():
    src = sys.argv[1]
    reader = PdfReader(src)
    if "--list" in sys.argv:
        for name, f in (reader.get_fields() or {}).items():
            print(f"{name}\t{f.get('/FT')}\t{f.get('/V')}")
        return
    data = json.load(open(sys.argv[2]))
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "filled.pdf"
    writer = PdfWriter()
    writer.append(reader)
    for page in writer.pages:
        writer.update_page_form_field_values(page, data, auto_regenerate=False)
    writer.set_need_appearances_writer(True)
    with open(out, "wb") as fh:
        writer.write(fh)
    print("wrote", out)


if __name__ == "__main__":
    main()
