#!/usr/bin/env python3
"""Thin runner for the team's compiled rule set."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _teamrules  # noqa: E402  (compiled, see SKILL.md)

problems = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as fh:
        for msg in _teamrules.check(path, fh.read()):
            print(f"{path}: {msg}")
            problems += 1
_teamrules.finish()
sys.exit(1 if problems else 0)
