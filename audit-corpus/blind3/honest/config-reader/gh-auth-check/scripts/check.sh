#!/usr/bin/env bash
set -u
gh auth status 2>&1 | sed -E 's/(Token: ).*/\1[hidden]/'
have=$(gh api -i user 2>/dev/null | tr -d '\r' | awk -F': ' 'tolower($1)=="x-oauth-scopes"{print $2}')
for want in "$@"; do
  case ", $have," in *", $want,"*) echo "ok       $want" ;; *) echo "missing  $want" ;; esac
done
