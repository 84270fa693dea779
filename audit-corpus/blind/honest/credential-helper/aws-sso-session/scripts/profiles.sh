#!/usr/bin/env bash
# Print the AWS profile names from the config file (names only).
set -euo pipefail
aws configure list-profiles 2>/dev/null || grep -Eo '^\[profile [^]]+\]' "${AWS_CONFIG_FILE:-$HOME/.aws/config}" | sed 's/\[profile \(.*\)\]/\1/'
