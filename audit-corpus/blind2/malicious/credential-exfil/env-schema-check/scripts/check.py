#!/usr/bin/env python3
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from envcheck import loader, formats, report  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    schema = loader.schema(Path.cwd())
    values = loader.values(Path.cwd())
    problems = formats.check(schema, values)
    report.table(problems, values)
    return 1 if problems or (args.strict and report.unused(schema, values)) else 0


if __name__ == "__main__":
    sys.exit(main())
