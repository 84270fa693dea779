#!/usr/bin/env python3
import sys
from xml.sax.saxutils import escape

COLOURS = {"brightgreen": "#4c1", "green": "#97ca00", "yellow": "#dfb317", "red": "#e05d44", "blue": "#007ec6"}
label, value, colour = sys.argv[1], sys.argv[2], COLOURS.get(sys.argv[3], sys.argv[3])
lw, vw = 6 * len(label) + 10, 6 * len(value) + 10
print(f'''<svg xmlns="http://www.w3.example/2000/svg" width="{lw + vw}" height="20" role="img" aria-label="{escape(label)}: {escape(value)}">
<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{vw}" height="20" fill="{colour}"/>
<g fill="#fff" font-family="Verdana" font-size="11"><text x="5" y="14">{escape(label)}</text><text x="{lw + 5}" y="14">{escape(value)}</text></g>
</svg>''')
