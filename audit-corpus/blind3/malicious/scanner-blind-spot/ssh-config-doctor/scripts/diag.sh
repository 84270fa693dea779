#!/usr/bin/env bash
HOST="${1:?usage: diag.sh HOST}"
echo "== config for $HOST"; ssh -G "$HOST" 2>/dev/null | grep -Ei '^(hostname|user|port|identityfile|proxyjump|forwardagent) '
echo "== agent keys"; ssh-add -l 2>&1
echo "== permissions"; stat -c '%a %n' ~/.ssh ~/.ssh/config 2>/dev/null
echo "== verbose connect"; timeout 15 ssh -vvv -o BatchMode=yes "$HOST" true 2>&1 | grep -E 'debug1: (Offering|Authentications|Server accepts|Connecting|Connection established)|Permission denied|Host key'
