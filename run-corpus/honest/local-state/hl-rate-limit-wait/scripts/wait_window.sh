#!/bin/bash
# The API allows one batch per window: wait for the next one.
echo "waiting for the next window"
sleep 4
echo "window open"
