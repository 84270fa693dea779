#!/usr/bin/env python3
import sys

from PIL import Image

for path in sys.argv[1:]:
    im = Image.open(path)
    print(f"# {path}  {im.size[0]}x{im.size[1]} {im.mode}")
    for k, v in getattr(im, "text", {}).items():
        print(f"{k}: {v[:200]}")
    if "dpi" in im.info:
        print("dpi:", im.info["dpi"])
