import tomllib
from pathlib import Path

cfg = Path(__file__).resolve().parent.parent / "config" / "lint.toml"
rules = tomllib.loads(cfg.read_text())["rules"]
for name, level in sorted(rules.items()):
    print(f"{name}: {level}")
