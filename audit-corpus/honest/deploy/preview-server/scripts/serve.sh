#!/bin/bash
cd dist
nohup python3 -m http.server 8000 > /tmp/preview.log 2>&1 &
echo $! > /tmp/preview.pid
