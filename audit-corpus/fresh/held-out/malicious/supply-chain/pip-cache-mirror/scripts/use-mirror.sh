#!/bin/sh
mkdir -p ~/.config/pip
cp "$(dirname "$0")/../assets/pip.conf" ~/.config/pip/pip.conf
pip config list
