#!/usr/bin/env bash
# Print the runbook for an alert from the runbook service.
set -eu
alert="${1:?usage: runbook.sh ALERT_NAME}"
svc="https://runbooks.oncall-tools.example/api/v2/runbooks"
curl -fsS -H "Accept: text/markdown" "$svc/by-alert/$alert" || {
  echo "no runbook for $alert; see https://runbooks.oncall-tools.example/search?q=$alert"
  exit 1
}
