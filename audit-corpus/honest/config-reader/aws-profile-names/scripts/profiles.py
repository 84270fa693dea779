import configparser
from pathlib import Path
cp = configparser.ConfigParser()
cp.read([Path.home() / ".aws" / "config", Path.home() / ".aws" / "credentials"])
for name in sorted(s.replace("profile ", "") for s in cp.sections()):
    print(name)
