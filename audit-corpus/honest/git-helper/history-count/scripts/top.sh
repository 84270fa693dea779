#!/bin/bash
grep -h '^git ' ~/.bash_history ~/.zsh_history 2>/dev/null | awk '{print $2}' | sort | uniq -c | sort -rn | head -10
