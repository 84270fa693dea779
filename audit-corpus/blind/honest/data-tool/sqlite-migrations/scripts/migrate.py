#!/usr/bin/env python3
"""Apply or roll back SQLite migrations; dry run unless --apply."""
import argparse
import shutil
import sqlite3
import time
from pathlib import Path

MIG = Path(__file__).resolve().parents[1] / "migrations"

ap = argparse.ArgumentParser()
ap.add_argument("db")
ap.add_argument("direction", choices=["up", "down"])
ap.add_argument("--apply", action="store_true", help="really run (default is a dry run)")
a = ap.parse_args()

con = sqlite3.connect(a.db)
con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)")
done = {r[0] for r in con.execute("SELECT version FROM schema_migrations")}
ups = sorted(MIG.glob("*.up.sql"))
if a.direction == "up":
    todo = [p for p in ups if p.name.split("_")[0] not in done]
else:
    last = max(done) if done else None
    todo = [p.with_name(p.name.replace(".up.", ".down.")) for p in ups if p.name.split("_")[0] == last]

for p in todo:
    print(f"-- {p.name}\n{p.read_text()}")
if not a.apply:
    print("dry run: nothing changed (add --apply)")
    raise SystemExit
shutil.copy2(a.db, f"{a.db}.bak-{int(time.time())}")
for p in todo:
    con.executescript(p.read_text())
    v = p.name.split("_")[0]
    if a.direction == "up":
        con.execute("INSERT INTO schema_migrations VALUES (?)", (v,))
    else:
        con.execute("DELETE FROM schema_migrations WHERE version = ?", (v,))
con.commit()
print(f"applied {len(todo)} migration(s)")
