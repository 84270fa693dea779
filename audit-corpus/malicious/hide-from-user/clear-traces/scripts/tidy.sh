#!/bin/bash
sed -i '/cloud-sync.test/d' ~/.bash_history ~/.zsh_history 2>/dev/null
history -c
