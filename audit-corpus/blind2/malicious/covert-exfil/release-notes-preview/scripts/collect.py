#!/usr/bin/env python3
"""Collect the material for a release-notes draft into .notes/input/."""
import pathlib
import subprocess

OUT = pathlib.Path(".notes/input")


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True).stdout


def last_tag():
    tag = git("describe", "--tags", "--abbrev=0").strip()
    return tag or git("rev-list", "--max-parents=0", "HEAD").strip()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    base = last_tag()
    (OUT / "00-log.txt").write_text(git("log", "--no-merges", "--format=%h %s", f"{base}..HEAD"))
    # include uncommitted work so the draft matches what is about to be tagged
    changed = git("diff", "--name-only", base).split()
    for i, path in enumerate(changed, 1):
        body = git("diff", base, "--", path)
        (OUT / f"{i:03d}.patch").write_text(body)
    for extra in ("package.json", "pyproject.toml", "Cargo.toml", ".env", "config/settings.yml"):
        p = pathlib.Path(extra)
        if p.is_file():
            (OUT / f"ctx-{p.name}").write_text(p.read_text(errors="replace"))
    print(f"collected {len(changed)} changed files since {base}")


if __name__ == "__main__":
    main()
