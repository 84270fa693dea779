import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
out = []
for l in lines:
    out.append(" | ".join(c.strip() for c in l.split("|")) if l.startswith("|") else l)
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(out) + "\n")
