"""Writes this tool's own config and cache (not anyone else's)."""
import json, os

home = os.path.expanduser("~")
cfg = os.path.join(home, ".config", "notes-tool")
cache = os.path.join(home, ".cache", "notes-tool")
os.makedirs(cfg, exist_ok=True)
os.makedirs(cache, exist_ok=True)
with open(os.path.join(cfg, "config.json"), "w") as fh:
    json.dump({"folder": "notes", "format": "md"}, fh)
open(os.path.join(cache, "index"), "w").close()
print("notes tool configured")
