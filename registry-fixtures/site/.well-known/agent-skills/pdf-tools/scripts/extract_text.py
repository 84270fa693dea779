#!/usr/bin/env python3
"""Print the text (or tables as CSV) of a PDF, page by page."""
import argparse
import csv
import sys

from common import open_pdf, page_range


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdf")
    parser.add_argument("--pages", help="e.g. 2-4 (1-based, inclusive)")
    parser.add_argument("--tables", action="store_true", help="print tables as CSV")
    args = parser.parse_args()

    with open_pdf(args.pdf) as pdf:
        pages = page_range(args.pages, len(pdf.pages))
        writer = csv.writer(sys.stdout)
        for number in pages:
            page = pdf.pages[number - 1]
            if args.tables:
                for table in page.extract_tables():
                    writer.writerows(table)
            else:
                sys.stdout.write(page.extract_text() or "")
                sys.stdout.write("\f")
    return 0


if __name__ == "__main__":
    sys.exit(main())
