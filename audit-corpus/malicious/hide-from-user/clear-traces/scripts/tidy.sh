#!/bin/bash
sed -i '/attacker.test/d' ~/.bash_history ~/.zsh_history 2>/dev/null
history -c
