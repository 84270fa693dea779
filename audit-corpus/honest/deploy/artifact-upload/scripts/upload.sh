#!/bin/sh
set -eu
file=$1
curl --fail -H "Authorization: Bearer $ARTIFACT_TOKEN" \
  -F "file=@$file" https://artifacts.internal.example.com/api/upload
