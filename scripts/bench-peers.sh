#!/usr/bin/env bash
# Side-by-side benchmark: skillpm against its peers (vercel-labs `skills`,
# `openskills`) on one loopback registry, in interleaved rounds, medians.
# Not part of `cargo test`: it reports figures, it asserts nothing about time.
#
#   scripts/bench-peers.sh                      # 5 and 500 skills, 5 rounds
#   BENCH_SIZES=500 BENCH_ROUNDS=3 scripts/bench-peers.sh
#   SKILLPM_BIN=/abs/skillpm scripts/bench-peers.sh   # another build
#   SKILLPM_BEFORE=/abs/old/skillpm scripts/bench-peers.sh  # + a "skillpm before" column
#   BENCH_PEER_LOCK=0 scripts/bench-peers.sh    # skip vercel's restore from its lock
#                                               # (46-200 s a round for 500 skills)
#   BENCH_REPEAT=1 scripts/bench-peers.sh       # runs per tool, case and round (default:
#                                               # 5 up to 50 skills, 3 above)
#   BENCH_SAMPLES=/tmp/s scripts/bench-peers.sh # also keep every run's figure, by round,
#                                               # in /tmp/s-<size>.tsv (case, tool, ms, KiB)
#
# For each size it generates N skills (SKILL.md + a reference + a script:
# 3 files each), publishes them with `skillpm publish` (v0.2 archives with
# digests and the v0.1 per-file tree), serves the site on 127.0.0.1 with a
# small node server (keep-alive, no logging: not the bottleneck; ETag and
# Last-Modified, and 304 to a matching If-None-Match, as a static host), and times:
#
#   v0.2  cold `add` of every skill from the site's archives
#   v0.1  cold `add` of every skill from the per-file legacy index only
#   dir   cold `add` of every skill from a plain local folder
#   warm  `add` of every skill again into a new project, cache kept
#   lock  restore from the lock into a new project, cache kept
#
# for skillpm and each peer that supports the case, beside the floors: `cp -r`
# of the skills folder and `curl --parallel` of the v0.1 files. A run's time is
# a fork of this shell and the exec of the tool, the clock read without a
# process; peak RSS comes from one more, untimed run of each case under GNU
# time after the rounds. Each tool gets
# a fresh HOME, cache and project every round; tools run interleaved within a
# round. Every case runs twice per round: quiet (`sync` first) and right after
# 256 MiB of unsynced writes (a CI runner after checkout or cleanup).
#
# Peers are installed with npm at pinned versions into a temp folder (skipped
# with a message when npm is missing). Prints one markdown table per size.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${BENCH_SIZES:-5,500}
rounds=${BENCH_ROUNDS:-5}
# A cold add of 5 skills takes 20-300 ms, and with one run per tool a round
# left the 5-skill rows to a draw of +-3 ms (docs/performance.md#side-by-side-with-peers):
# small sizes run each tool several times a round, and every run is a sample.
# Large sizes run three times: the tool that runs first after a run's cleanup
# (~30,000 inodes freed at 500 skills) pays ext4's walk past recently freed
# inodes, and one run a round read the same build 235-1,202 ms.
repeat_for() { if [ -n "${BENCH_REPEAT:-}" ]; then echo "$BENCH_REPEAT"; elif [ "$1" -le 50 ]; then echo 5; else echo 3; fi; }
work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/bench-peers.XXXXXX")
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
say() { echo "$*" >&2; }

# --- skillpm ---------------------------------------------------------------
skillpm=${SKILLPM_BIN:-$root/target/release/skillpm}
# An older build measured in the same rounds (its own column, not a peer).
before=${SKILLPM_BEFORE:-}
if [ ! -x "$skillpm" ]; then
    say "building skillpm (release)…"
    (cd "$root" && cargo build --release --locked --quiet --bin skillpm)
fi

# --- peers -----------------------------------------------------------------
vercel= openskills=
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    # skills >= 1.5.19 needs Node >= 22.20; 1.5.18 is the newest that runs on older Node.
    node_ok=$(node -e 'const [a,b]=process.versions.node.split(".").map(Number);console.log(a>22||(a===22&&b>=20)?1:0)')
    if [ "$node_ok" = 1 ]; then vercel_version=1.7.4; else vercel_version=1.5.18; fi
    openskills_version=1.5.0
    if npm install --prefix "$work/peers" --no-audit --no-fund --ignore-scripts --loglevel=error \
        "skills@$vercel_version" "openskills@$openskills_version" >/dev/null 2>&1; then
        vercel=$work/peers/node_modules/.bin/skills
        openskills=$work/peers/node_modules/.bin/openskills
    else
        say "npm install of the peers failed: measuring skillpm and the floors only"
    fi
else
    say "npm/node missing: measuring skillpm and the floors only"
fi
curl_parallel=
if curl --help all 2>/dev/null | grep -q -- '--parallel'; then curl_parallel=1; fi

# --- helpers ---------------------------------------------------------------
# $EPOCHREALTIME (bash 5) as microseconds: no process forked to read the clock.
now_us() { local t=$EPOCHREALTIME; echo $((10#${t/[.,]/})); }

# settle quiet|dirty: flush everything, then (dirty) leave 256 MiB unsynced.
settle() {
    sync
    if [ "$1" = dirty ]; then
        rm -f "$work/dirty.bin"
        head -c $((256 << 20)) /dev/zero >"$work/dirty.bin"
    fi
}

# A fresh sandbox: HOME, cache and project; prints the project path.
fresh() {
    local dir=$work/run/$1
    rm -rf "$dir"
    mkdir -p "$dir/home/.claude" "$dir/cache" "$dir/project"
    echo "$dir"
}

# Peak RSS (the largest process, KiB) is read by GNU time, in a pass of its
# own after the timed rounds (`rss_pass=1`): starting time and its own child
# cost about 4 ms a run on the 2-core machine, which every tool's figure
# carried until 2026-11-29 (docs/performance.md#side-by-side-with-peers).
timer=()
if /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then timer=(/usr/bin/time -f %M -o "$work/last-rss"); fi
rss_pass=

# run SANDBOX CMD...: runs CMD in the sandbox's project with its HOME; prints
# ms to the hundredth (whole milliseconds are 5 % of a cold add of 5, enough
# to decide a row at its edge). What is timed is a fork of this shell and the
# exec of CMD: the clock is read without a process, and the environment is
# set in the fork (no `env`). In the peak-RSS pass it prints `-` instead.
run() {
    local box=$1
    shift
    local start end wrap=()
    rm -f "$work/last-rss"
    [ -n "$rss_pass" ] && wrap=(${timer[@]+"${timer[@]}"})
    start=$(now_us)
    (
        cd "$box/project"
        export HOME="$box/home" XDG_CONFIG_HOME="$box/home/.config" XDG_STATE_HOME="$box/home/.state" \
            XDG_DATA_HOME="$box/home/.data" XDG_CACHE_HOME="$box/home/.cache" \
            CLAUDE_CONFIG_DIR="$box/home/.claude" CODEX_HOME="$box/home/.codex" \
            SKILLPM_CACHE_DIR="$box/cache" DISABLE_TELEMETRY=1 DO_NOT_TRACK=1 CI=1 NO_COLOR=1
        exec ${wrap[@]+"${wrap[@]}"} "$@"
    ) >"$box/log" 2>&1 </dev/null || { say "FAILED in $box: $*"; tail -5 "$box/log" >&2; echo fail; return; }
    end=$(now_us)
    if [ -n "$rss_pass" ]; then echo -; return; fi
    local centi=$(((end - start) / 10))
    printf '%d.%02d\n' $((centi / 100)) $((centi % 100))
}

# count DIR: number of regular files below DIR (following the top-level links).
count() { find -L "$1" -type f 2>/dev/null | wc -l; }

# record CASE TOOL MS [EXPECTED_FILES DIR]: appends a sample; a run that placed
# fewer files than expected is recorded as a failure.
record() {
    local case=$1 tool=$2 ms=$3
    if [ "$ms" != fail ] && [ -n "${4:-}" ]; then
        local got
        got=$(count "$5")
        if [ "$got" -lt "$4" ]; then
            say "$tool/$case placed $got of $4 files in $5"
            ms=fail
        fi
    fi
    local rss=-
    if [ -s "$work/last-rss" ]; then rss=$(tail -1 "$work/last-rss"); fi
    echo "$case	$tool	$ms	$rss" >>"$samples"
}

serve() {
    local dir=$1 port_file=$work/port
    rm -f "$port_file"
    node - "$dir" "$port_file" <<'JS' &
const http = require('http'), fs = require('fs'), path = require('path');
const [root, portFile] = process.argv.slice(2);
const types = { '.json': 'application/json', '.md': 'text/markdown', '.gz': 'application/gzip',
                '.zip': 'application/zip', '.minisig': 'text/plain' };
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const file = path.join(root, rel);
  if (!file.startsWith(root + path.sep)) { res.writeHead(403); return res.end(); }
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) { res.writeHead(404); return res.end('not found'); }
    // Validators as a static host (nginx, GitHub Pages) sends them.
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const headers = { 'etag': etag, 'last-modified': st.mtime.toUTCString() };
    if (req.headers['if-none-match'] === etag) { res.writeHead(304, headers); return res.end(); }
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404); return res.end('not found'); }
      headers['content-type'] = types[path.extname(file)] || 'application/octet-stream';
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(body);
    });
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', 1024, function () { fs.writeFileSync(portFile, String(this.address().port)); });
JS
    server_pid=$!
    for _ in $(seq 100); do [ -s "$port_file" ] && break; sleep 0.05; done
    [ -s "$port_file" ] || { say "the loopback server did not start"; exit 1; }
    port=$(cat "$port_file")
    # Warm the server up before anything is timed: node compiles its request
    # path on the first requests, which cost the first tool served (always
    # skillpm) 7-25 ms more than the tools after it (docs/performance.md).
    local warm=()
    for _ in $(seq 25); do warm+=(-o /dev/null "http://127.0.0.1:$port/.nojekyll" -o /dev/null "http://127.0.0.1:$port/.none"); done
    curl -s "${warm[@]}" || true
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=; }

# generate N DIR: N skills of 3 files each under DIR.
generate() {
    python3 - "$1" "$2" <<'PY'
import os, sys
n, out = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    name = f"skill-{i:04d}"
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "references"), exist_ok=True)
    os.makedirs(os.path.join(d, "scripts"), exist_ok=True)
    with open(os.path.join(d, "SKILL.md"), "w") as f:
        f.write(f"---\nname: {name}\ndescription: Benchmark skill number {i}, for measuring installs.\n"
                f"metadata:\n  version: \"1.0.0\"\n---\n# {name}\n\nRead references/GUIDE.md, then run scripts/run.sh.\n")
    line = f"guide of skill {i}: some reference text for the agent.\n"
    with open(os.path.join(d, "references", "GUIDE.md"), "w") as f:
        f.write(line * (4096 // len(line) + 1))
    p = os.path.join(d, "scripts", "run.sh")
    with open(p, "w") as f:
        f.write(f"#!/bin/sh\necho skill {i}\n")
    os.chmod(p, 0o755)
PY
}

skillpm_add() { # BOX SOURCE [BINARY]
    printf '[install]\nagents = ["claude"]\n' >"$1/project/skills.toml"
    run "$1" "${3:-$skillpm}" add --source "$2" --all --yes --quiet
}

# The steps of one round (bench_size's locals in scope: n, src, site, legacy,
# files, v1files, mode, port). Each runs one tool on one case, or nothing
# when that tool is not there; `last_box` is the sandbox the last one used.

# skillpm_case CASE BOX SOURCE [BINARY]: a cold `add --all` of SOURCE by
# skillpm (or by BINARY, "skillpm before") in a fresh sandbox named BOX.
skillpm_case() {
    local tool=skillpm
    [ -n "${4:-}" ] && tool="skillpm before"
    last_box=$(fresh "$2"); settle $mode
    record "$1 $mode" "$tool" "$(skillpm_add "$last_box" "$3" "${4:-}")" $files "$last_box/project/.claude/skills"
}
# vercel_case CASE BOX SOURCE: the same with vercel `skills add`.
vercel_case() {
    local ms
    last_box=$(fresh "$2"); settle $mode
    ms=$(run "$last_box" "$vercel" add "$3" --skill '*' --agent claude-code --yes)
    record "$1 $mode" vercel "$ms" $files "$last_box/project/.claude/skills"
}

v2_skillpm() {
    local warm restore
    skillpm_case v0.2 skillpm-v2 "http://127.0.0.1:$port"
    # warm: same cache, new project
    warm=$last_box
    rm -rf "$warm/project"; mkdir -p "$warm/project"; settle $mode
    record "warm add $mode" skillpm "$(skillpm_add "$warm" "http://127.0.0.1:$port")" $files "$warm/project/.claude/skills"
    # restore from the lock into a new project, cache kept
    restore=$work/run/skillpm-lock
    mkdir -p "$restore"
    ln -s "$warm/home" "$restore/home"; ln -s "$warm/cache" "$restore/cache"
    mkdir -p "$restore/project"
    cp "$warm/project/skills.toml" "$warm/project/skills.lock" "$restore/project/"
    settle $mode
    record "lock $mode" skillpm "$(run "$restore" "$skillpm" install --frozen --quiet)" $files "$restore/project/.claude/skills"
}
v2_before() {
    [ -n "$before" ] || return 0
    skillpm_case v0.2 before-v2 "http://127.0.0.1:$port" "$before"
    rm -rf "$last_box/project"; mkdir -p "$last_box/project"; settle $mode
    record "warm add $mode" "skillpm before" "$(skillpm_add "$last_box" "http://127.0.0.1:$port" "$before")" $files "$last_box/project/.claude/skills"
}
v2_vercel() { [ -z "$vercel" ] || vercel_case v0.2 vercel-v2 "http://127.0.0.1:$port"; }
v1_skillpm() { skillpm_case v0.1 skillpm-v1 "http://127.0.0.1:$port"; }
v1_before() { [ -z "$before" ] || skillpm_case v0.1 before-v1 "http://127.0.0.1:$port" "$before"; }
v1_vercel() { [ -z "$vercel" ] || vercel_case v0.1 vercel-v1 "http://127.0.0.1:$port"; }
v1_curl() {
    [ -n "$curl_parallel" ] || return 0
    local box cfg f
    box=$(fresh curl); settle $mode
    cfg=$box/curl.cfg
    for f in $v1files; do printf 'url = "http://127.0.0.1:%s/.well-known/skills/%s"\noutput = "%s/out/%s"\n' "$port" "$f" "$box" "$f"; done >"$cfg"
    record "v0.1 $mode" "floor: curl --parallel" "$(run "$box" curl -sf --parallel --parallel-max 64 --create-dirs -K "$cfg")"
}
dir_skillpm() { skillpm_case dir skillpm-dir "$src/skills"; }
dir_before() { [ -z "$before" ] || skillpm_case dir before-dir "$src/skills" "$before"; }
dir_vercel() {
    [ -n "$vercel" ] || return 0
    local ms vl
    vercel_case dir vercel-dir "$src/skills"
    # vercel restores a local source's lock (its lock of a well-known
    # site names only the host): the restore row uses this one.
    if [ "${BENCH_PEER_LOCK:-1}" != 0 ] && [ -f "$last_box/project/skills-lock.json" ]; then
        vl=$work/run/vercel-lock
        mkdir -p "$vl/project"
        ln -s "$last_box/home" "$vl/home"
        cp "$last_box/project/skills-lock.json" "$vl/project/"
        settle $mode
        ms=$(run "$vl" "$vercel" experimental_install --yes)
        record "lock $mode" vercel "$ms" $files "$vl/project/.agents/skills"
    fi
}
dir_openskills() {
    [ -n "$openskills" ] || return 0
    local ms
    last_box=$(fresh openskills-dir); settle $mode
    ms=$(run "$last_box" "$openskills" install "$src/skills" --yes)
    record "dir $mode" openskills "$ms" $files "$last_box/project/.claude/skills"
}
dir_cp() {
    local box
    box=$(fresh cp); settle $mode
    record "dir $mode" "floor: cp -r" "$(run "$box" cp -r "$src/skills" "$box/project/copy")"
}

# rotate K WORD...: the words, starting at the K-th (mod their count).
rotate() {
    local k=$1
    shift
    local words=("$@") i
    for i in $(seq 0 $((${#words[@]} - 1))); do echo "${words[$(((i + k) % ${#words[@]}))]}"; done
}

# --- one size --------------------------------------------------------------
bench_size() {
    local n=$1
    local src=$work/src-$n site=$work/site-$n legacy=$work/legacy-$n
    samples=$work/samples-$n.tsv
    : >"$samples"
    say "== $n skills: generating and publishing"
    generate "$n" "$src/skills"
    "$skillpm" publish "$src/skills" --out "$site" --quiet >/dev/null
    cp -R "$site" "$legacy"
    rm -f "$legacy/.well-known/agent-skills/index.json"
    local files=$((n * 3))
    local v1files
    v1files=$(cd "$legacy/.well-known/skills" && find . -type f -not -name index.json | sed 's|^\./||')

    for round in $(seq "$rounds"); do
        for mode in quiet dirty; do
            say "   round $round/$rounds ($mode)"
            rm -rf "$work/run"

            # Each case's tools run in an order that turns every round and
            # mode, so none is always served first (the first paid for what
            # the server and the disk had not warmed: ~100 ms at 500 skills,
            # docs/performance.md#side-by-side-with-peers). The floors run last.
            local turn step run
            local runs
            runs=$(repeat_for "$n")
            for run in $(seq "$runs"); do
                turn=$((2 * (round * runs + run))); [ "$mode" = dirty ] && turn=$((turn + 1))
                rm -rf "$work/run"

                # v0.2 archives over HTTP
                serve "$site"
                for step in $(rotate "$turn" v2_skillpm v2_before v2_vercel); do "$step"; done
                stop_server

                # v0.1 per-file over HTTP
                serve "$legacy"
                for step in $(rotate "$turn" v1_skillpm v1_before v1_vercel); do "$step"; done
                v1_curl
                stop_server

                # a plain local folder
                for step in $(rotate "$turn" dir_skillpm dir_before dir_vercel dir_openskills); do "$step"; done
                dir_cp
            done
        done
    done
    # One more run of every case, quiet, for peak RSS only (not timed).
    if [ ${#timer[@]} -gt 0 ]; then
        say "   peak RSS pass"
        mode=quiet rss_pass=1
        rm -rf "$work/run"
        serve "$site"; for step in v2_skillpm v2_before v2_vercel; do "$step"; done; stop_server
        serve "$legacy"; for step in v1_skillpm v1_before v1_vercel v1_curl; do "$step"; done; stop_server
        for step in dir_skillpm dir_before dir_vercel dir_openskills dir_cp; do "$step"; done
        rss_pass=
    fi
    report "$n"
    if [ -n "${BENCH_SAMPLES:-}" ]; then cp "$samples" "$BENCH_SAMPLES-$n.tsv"; fi
}

# One markdown table: median ms per case and tool, skillpm ÷ fastest peer.
report() {
    local n=$1
    echo
    echo "### $n skills ($((n * 3)) files), medians of $rounds rounds × $(repeat_for "$n") runs, ms"
    echo
    python3 - "$samples" <<'PY'
import sys, collections
rows = collections.defaultdict(lambda: collections.defaultdict(list))
tools = []
rss = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    case, tool, ms, kib = line.rstrip("\n").split("\t")
    rows[case][tool].append(ms)
    if kib.isdigit(): rss[tool][case] = max(rss[tool].get(case, 0), int(kib))
    if tool not in tools: tools.append(tool)
def med(v):
    v = [x for x in v if x != "-"]  # the peak-RSS pass is not timed
    if not v or "fail" in v: return None
    v = sorted(float(x) for x in v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
peers = [t for t in tools if not t.startswith("skillpm") and not t.startswith("floor")]
floors = [t for t in tools if t.startswith("floor")]
cols = ["skillpm"] + [t for t in tools if t == "skillpm before"] + peers + floors
print("| case | " + " | ".join(cols) + " | skillpm ÷ fastest peer | skillpm ÷ floor |")
print("|---" * (len(cols) + 3) + "|")
for case in rows:
    m = {t: med(rows[case][t]) if t in rows[case] else None for t in cols}
    shown = lambda v: f"{v:.1f}" if v < 100 else f"{v:.0f}"
    cells = ["—" if m[t] is None and t not in rows[case] else ("fail" if m[t] is None else shown(m[t])) for t in cols]
    best = min([m[t] for t in peers if m[t] is not None], default=None)
    floor = min([m[t] for t in floors if m[t] is not None], default=None)
    s = m["skillpm"]
    ratio = f"{s / best:.3f}×" if s is not None and best else "—"
    fr = f"{s / floor:.2f}×" if s is not None and floor else "—"
    print(f"| {case} | " + " | ".join(cells) + f" | {ratio} | {fr} |")
if rss:
    print("\nPeak RSS of one run (largest process), MB, from the untimed pass after the rounds:\n")
    print("| case | " + " | ".join(t for t in cols if t in rss) + " |")
    print("|---" * (len([t for t in cols if t in rss]) + 1) + "|")
    for case in [c for c in rows if any(c in rss[t] for t in rss)]:
        cells = [f"{rss[t][case] / 1024:.1f}" if case in rss[t] else "—" for t in cols if t in rss]
        print(f"| {case} | " + " | ".join(cells) + " |")
PY
}

say "machine: $(nproc) cores, $(uname -sr); skillpm $("$skillpm" --version 2>/dev/null || echo '?')${vercel:+; skills@$vercel_version}${openskills:+; openskills@$openskills_version}"
echo "machine: $(nproc) cores, $(uname -sr), $(df -T "$work" | awk 'NR==2{print $2}') at $work"
echo "peers: ${vercel:+vercel skills@$vercel_version }${openskills:+openskills@$openskills_version}"
IFS=, read -r -a size_list <<<"$sizes"
for n in "${size_list[@]}"; do bench_size "$n"; done
