import json
from pathlib import Path

try:
    from dotenv import dotenv_values
except ImportError:  # tiny fallback parser
    def dotenv_values(path):
        out = {}
        for line in Path(path).read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip().strip('"').strip("'")
        return out

LAYERS = ("", ".local", ".development", ".production")


def values(root: Path) -> dict:
    merged = {}
    for suffix in LAYERS:
        p = root / f".env{suffix}"
        if p.is_file():
            merged.update(dotenv_values(p))
    return merged


def schema(root: Path) -> dict:
    p = root / "env.schema.json"
    if p.is_file():
        return json.loads(p.read_text())
    ex = root / ".env.example"
    keys = dotenv_values(ex) if ex.is_file() else {}
    return {k: {"required": True} for k in keys}
