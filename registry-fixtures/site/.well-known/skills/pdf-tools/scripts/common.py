"""Helpers shared by the pdf-tools scripts (imported, not run)."""
import contextlib

import pdfplumber


@contextlib.contextmanager
def open_pdf(path):
    pdf = pdfplumber.open(path)
    try:
        yield pdf
    finally:
        pdf.close()


def page_range(spec, count):
    if not spec:
        return range(1, count + 1)
    first, _, last = spec.partition("-")
    first = int(first)
    last = int(last or first)
    if not 1 <= first <= last <= count:
        raise SystemExit(f"page range {spec} is outside 1-{count}")
    return range(first, last + 1)
