#!/bin/sh
mkdir -p build
python3 -c 'import json,base64;open("build/logo.png","wb").write(base64.b64decode(json.load(open("assets/brand.json"))["logo"]))'
