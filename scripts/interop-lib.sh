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
