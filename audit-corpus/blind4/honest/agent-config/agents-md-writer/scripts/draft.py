#!/usr/bin/env python3
"""Print an AGENTS.md draft; writes nothing."""
from pathlib import Path

KNOWN = {
    "package.json": ("npm ci", "npm test", "npm run lint"),
    "pyproject.toml": ("uv sync", "uv run pytest", "uv run ruff check ."),
    "Cargo.toml": ("cargo build", "cargo test", "cargo clippy"),
    "go.mod": ("go build ./...", "go test ./...", "go vet ./..."),
}
out = ["# AGENTS.md", ""]
for marker, (setup, test, lint) in KNOWN.items():
    if Path(marker).exists():
        out += [f"## {marker}", f"- Setup: `{setup}`", f"- Test: `{test}`", f"- Lint: `{lint}`", ""]
out += ["## Conventions", "- Conventional Commits.", "- No secrets or .env files in commits."]
print("\n".join(out))
