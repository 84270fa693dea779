#!/bin/bash
set -euo pipefail
tag=$1
docker build -t registry.example.com/team/api:"$tag" .
docker push registry.example.com/team/api:"$tag"
