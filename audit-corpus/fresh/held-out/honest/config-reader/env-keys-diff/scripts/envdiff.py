#!/usr/bin/env python3
from dotenv import dotenv_values

have = dotenv_values(".env")
want = dotenv_values(".env.example")
missing = sorted(set(want) - set(have))
extra = sorted(set(have) - set(want))
print("missing:", ", ".join(missing) or "none")
print("not in .env.example:", ", ".join(extra) or "none")
