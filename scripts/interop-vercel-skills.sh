#!/usr/bin/env bash
# Interoperability check: the vercel-labs `skills` CLI (npm package `skills`)
# installs the skills of registry-fixtures/site from a loopback HTTP server,
# once through the v0.2.0 index (.well-known/agent-skills: archives, digests)
# and once through the legacy v0.1.0 index (.well-known/skills: file lists),
# and every installed file must equal the fixture source byte for byte.
#
# Needs node and npm (skips, exit 0, with a message when either is missing);
# reaches the npm registry once to install the CLI into a temp dir; all
# skill traffic stays on 127.0.0.1 and the CLI's telemetry is switched off.
#
#   scripts/interop-vercel-skills.sh            # pinned CLI version
#   SKILLS_VERSION=latest scripts/interop-vercel-skills.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
site=$root/registry-fixtures/site
sources=$root/registry-fixtures/skills

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "SKIP interop-vercel-skills: npm and node are needed to install the vercel-labs skills CLI"
    exit 0
fi

check=interop-vercel-skills
# shellcheck source=scripts/interop-lib.sh
. "$root/scripts/interop-lib.sh"
version=${SKILLS_VERSION:-$(vercel_skills_version)}

repository=$(npm view "skills@$version" repository.url 2>/dev/null) \
    || fail "cannot query the npm registry for skills@$version"
case $repository in
    *github.com/vercel-labs/skills*) ;;
    *) fail "npm package 'skills' points at '$repository', not vercel-labs/skills" ;;
esac
npm install --prefix "$tmp/cli" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "skills@$version" >/dev/null || fail "npm install skills@$version failed"
cli=$tmp/cli/node_modules/.bin/skills

# A static file server on an ephemeral loopback port. $1: folder to serve.
serve() {
    local dir=$1 port_file=$tmp/port
    requests=$tmp/requests-$RANDOM.log
    rm -f "$port_file"
    : >"$requests"
    node - "$dir" "$port_file" "$requests" <<'JS' &
const http = require('http'), fs = require('fs'), path = require('path');
const [root, portFile, log] = process.argv.slice(2);
const types = { '.json': 'application/json', '.md': 'text/markdown', '.gz': 'application/gzip',
                '.zip': 'application/zip', '.minisig': 'text/plain' };
http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  fs.appendFileSync(log, rel + '\n');
  const file = path.join(root, rel);
  if (!file.startsWith(root + path.sep)) { res.writeHead(403); return res.end(); }
  fs.readFile(file, (err, body) => {
    if (err) { res.writeHead(404); return res.end('not found'); }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  });
}).listen(0, '127.0.0.1', function () { fs.writeFileSync(portFile, String(this.address().port)); });
JS
    server_pid=$!
    for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
    [ -s "$port_file" ] || fail "the loopback server did not start"
    port=$(cat "$port_file")
}

stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=; }

# Fails unless the server saw a request matching the regex $2 (and, with $3, none matching $3).
requested() {
    grep -Eq "$2" "$requests" || { cat "$requests" >&2; fail "$1: no request matched $2"; }
    if [ -n "${3:-}" ] && grep -Eq "$3" "$requests"; then cat "$requests" >&2; fail "$1: unexpected request matching $3"; fi
}

# Installs every skill from $1 (a URL) into a fresh project and HOME; checks them.
install_and_check() {
    local label=$1 url=$2 project=$tmp/$1/project home=$tmp/$1/home
    mkdir -p "$project" "$home"
    (
        cd "$project"
        env HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" \
            XDG_DATA_HOME="$home/.data" XDG_CACHE_HOME="$home/.cache" \
            CLAUDE_CONFIG_DIR="$home/.claude" CODEX_HOME="$home/.codex" \
            DISABLE_TELEMETRY=1 DO_NOT_TRACK=1 CI=1 NO_COLOR=1 \
            "$cli" add "$url" --skill '*' --agent claude-code --yes --copy
    ) >"$tmp/$label.log" 2>&1 || { cat "$tmp/$label.log" >&2; fail "$label: 'skills add $url' failed"; }

    local installed=$project/.claude/skills count=0
    [ -d "$installed" ] || { cat "$tmp/$label.log" >&2; fail "$label: nothing installed under .claude/skills"; }
    for src in "$sources"/*/; do
        local name
        name=$(basename "$src")
        [ -d "$installed/$name" ] || fail "$label: skill $name was not installed"
        diff -r "$src" "$installed/$name" >"$tmp/$label-$name.diff" 2>&1 \
            || { cat "$tmp/$label-$name.diff" >&2; fail "$label: $name differs from its source"; }
        count=$((count + 1))
    done
    echo "ok   $label: skills@$version installed $count skills from $url, every file identical"
}

serve "$site"
install_and_check v0.2.0 "http://127.0.0.1:$port"
# It read the signed-format index and unpacked our archives (digest-checked),
# never falling back to the per-file trees.
requested v0.2.0 '^/\.well-known/agent-skills/pdf-tools\.tar\.gz$' '^/\.well-known/(agent-)?skills/[a-z0-9-]+/'
stop_server

# The legacy index alone: the same site without the v0.2.0 index.
cp -R "$site" "$tmp/legacy-site"
rm "$tmp/legacy-site/.well-known/agent-skills/index.json"
serve "$tmp/legacy-site"
install_and_check v0.1.0 "http://127.0.0.1:$port"
requested v0.1.0 '^/\.well-known/skills/api-client/agents/openai\.yaml$' '\.tar\.gz$'
stop_server

echo "PASS interop-vercel-skills: vercel-labs skills@$version accepted both indexes"
