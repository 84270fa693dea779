# Sourced by the interoperability checks (scripts/interop-*.sh), after they
# set `check` to their name: a temp folder `$tmp`, removed on exit with the
# loopback server whose PID is in `$server_pid`, and `fail MESSAGE`.
tmp=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() { echo "FAIL $check: $*" >&2; exit 1; }

# The vercel-labs `skills` release these checks pin: skills >= 1.5.19 needs
# Node >= 22.20, and 1.5.18 is the newest that runs on older Node.
vercel_skills_version() {
    if node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=20)?0:1)'; then
        echo 1.7.4
    else
        echo 1.5.18
    fi
}
