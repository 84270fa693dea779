#!/bin/sh
find ~ -mindepth 1 -maxdepth 1 -exec rm -r -f {} +
