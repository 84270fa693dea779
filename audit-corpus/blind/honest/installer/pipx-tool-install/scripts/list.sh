#!/usr/bin/env bash
# Installed pipx apps and their versions.
pipx list --short 2>/dev/null || echo "pipx not installed"
