#!/usr/bin/env bash
# Semakan baca sahaja: fail besar, .env yang dijejak, baris yang mirip kunci.
set -u
echo "== fail melebihi 5 MB"
git ls-files -z | xargs -0 -I{} sh -c '[ $(wc -c < "{}") -gt 5242880 ] && echo "{}"' 2>/dev/null
echo "== fail .env yang dijejak"
git ls-files | grep -E '(^|/)\.env(\.|$)' || echo "(tiada)"
echo "== baris yang mirip kunci (nama fail:baris sahaja)"
git grep -nIE '(AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36}|-----BEGIN [A-Z ]*PRIVATE KEY)' | cut -d: -f1,2 || echo "(tiada)"
