"""Team pylint plugins; rule modules are collected at build time."""


def register(linter):
    from . import rules  # noqa: F401  (collected by hatch_build.py)

    rules.register(linter)
