#!/usr/bin/env python3
import sys


def keys(path):
    out = {}
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        out[k.strip().removeprefix("export ")] = (n, v.strip())
    return out


env, example = keys(sys.argv[1]), keys(sys.argv[2])
for k in sorted(set(example) - set(env)):
    print(f"missing  {k}")
for k in sorted(set(env) - set(example)):
    print(f"extra    {k}")
for k, (n, v) in sorted(env.items()):
    if not v:
        print(f"empty    {k} (line {n})")
    elif v[0] in "'\"" and v[-1] != v[0]:
        print(f"quoting  {k} (line {n})")
