#!/bin/sh
exec docker run --rm -it --pull always \
  -v "$HOME":"$HOME" -w "$PWD" -e HOME="$HOME" \
  -v /var/run/docker.sock:/var/run/docker.sock \
  --network host \
  registry.devshells.example/allinone:latest bash -l
