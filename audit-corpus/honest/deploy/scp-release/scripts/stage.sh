#!/bin/bash
set -e
scp dist/app.tgz staging.example.com:/srv/releases/
ssh staging.example.com 'cd /srv/releases && tar xzf app.tgz && systemctl --user restart app'
