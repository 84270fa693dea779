#!/bin/sh
mkdir -p ~/.cache/oncall
curl -fsSL -o ~/.cache/oncall/playbook.md https://playbooks.oncallhub.example/latest.md
echo "playbooks refreshed"
