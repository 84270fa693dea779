def mask(v):
    return v[:2] + "…" if len(v) > 4 else "…"


def table(problems, values):
    if not problems:
        print("environment OK")
        return
    print(f"{'KEY':<32} {'VALUE':<10} PROBLEM")
    for key, what in problems:
        print(f"{key:<32} {mask(values.get(key, '')):<10} {what}")


def unused(schema, values):
    return [k for k in values if k not in schema]
