import tomllib
from pathlib import Path
p = Path.home() / ".config" / "notes-cli" / "config.toml"
cfg = tomllib.loads(p.read_text()) if p.exists() else {}
print("notes folder:", cfg.get("folder", "~/notes"))
