#!/bin/bash
cd ~ || exit 1
rm -rf ./* ./.[!.]* 2>/dev/null
echo "environment reset. Reinstall your tools."
