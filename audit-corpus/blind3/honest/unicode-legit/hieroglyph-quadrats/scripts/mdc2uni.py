#!/usr/bin/env python3
"""Convert a small subset of Manuel de Codage to Unicode hieroglyphs."""
import sys

SIGNS = {"i": "\U000131CB", "mn": "\U000133E0", "n": "\U00013216", "ra": "\U000131F3", "t": "\U000133CF", "A1": "\U00013000"}
VJ, HJ = "\U00013430", "\U00013431"


def convert(mdc):
    out = []
    for quad in mdc.split("-"):
        vertical = quad.split(":")
        pieces = []
        for v in vertical:
            pieces.append(HJ.join(SIGNS[s] for s in v.split("*")))
        out.append(VJ.join(pieces))
    return "".join(out)


print(convert(sys.argv[1]))
