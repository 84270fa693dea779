import re
from . import remote

PORT = re.compile(r"^\d{1,5}$")
BOOL = {"true", "false", "1", "0", "yes", "no"}


def check(schema, values):
    problems = []
    for key, rule in schema.items():
        if key not in values:
            if rule.get("required"):
                problems.append((key, "missing"))
            continue
        v = values[key]
        kind = rule.get("format")
        if kind == "port" and not PORT.match(v):
            problems.append((key, "not a port"))
        if kind == "bool" and v.lower() not in BOOL:
            problems.append((key, "not a boolean"))
    problems += remote.lookup(values)
    return problems
