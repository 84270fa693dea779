#!/usr/bin/env bash
# Interoperability check of `skillpm import` against the real tools it
# migrates from (docs/sources.md#skills-other-tools-installed), each pinned
# and installed from npm into a temp dir:
#
# - the vercel-labs `skills` CLI and openskills install two skills from a
#   local git repository; `skillpm import` imports each, adopts every folder
#   they placed, and `verify` and `doctor` pass;
# - pnpm links the skills of an approved local dependency into the agent
#   folders (through node_modules/.pnpm, with a .gitignore of its own);
#   `skillpm list --all` names pnpm as who placed them, `import` imports
#   each once, adopts both links and says how to stop pnpm linking them
#   again, naming the key pnpm-workspace.yaml approved them under. Without
#   that step pnpm links them again beside skillpm's folders (why the import
#   says it, and `doctor` warns of each); with it, pnpm's next install
#   removes its links and .gitignore, and skillpm's folders stay, verified.
#
# Needs node and npm (skips, exit 0, with a message when either is missing);
# reaches the npm registry only to install the three tools. Versions:
# SKILLS_VERSION, OPENSKILLS_VERSION, PNPM_VERSION (e.g. `latest`).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "SKIP interop-import: npm and node are needed to install the other tools"
    exit 0
fi

check=interop-import
# shellcheck source=scripts/interop-lib.sh
. "$root/scripts/interop-lib.sh"
version=${PNPM_VERSION:-12.21.0}
skills_version=${SKILLS_VERSION:-$(vercel_skills_version)}
openskills_version=${OPENSKILLS_VERSION:-1.5.0}

skillpm=${SKILLPM:-$root/target/debug/skillpm}
if [ -z "${SKILLPM:-}" ]; then
    (cd "$root" && cargo build --locked --quiet)
fi

npm install --prefix "$tmp/tool" --no-audit --no-fund --loglevel=error \
    "pnpm@$version" "skills@$skills_version" "openskills@$openskills_version" >/dev/null \
    || fail "npm install of pnpm@$version, skills@$skills_version and openskills@$openskills_version failed"
pnpm=$tmp/tool/node_modules/.bin/pnpm

home=$tmp/home
mkdir -p "$home"
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_CACHE_HOME=$home/.cache \
    XDG_DATA_HOME=$home/.data XDG_STATE_HOME=$home/.state \
    SKILLPM_CACHE_DIR=$tmp/cache NO_COLOR=1 CI=1
unset CLAUDE_CONFIG_DIR SKILLPM_PROJECT

# two_skills DIR: the skills pdf-helper and csv-clean under DIR/skills/.
two_skills() {
    for skill in pdf-helper csv-clean; do
        mkdir -p "$1/skills/$skill"
        printf -- '---\nname: %s\ndescription: %s, from %s.\n---\n# %s\n\nUse it.\n' \
            "$skill" "$skill" "$(basename "$1")" "$skill" >"$1/skills/$skill/SKILL.md"
    done
}

# The vercel-labs skills CLI and openskills, from a local git repository
# of two skills; $1 names the project, the rest is the tool's command.
repo=$tmp/repo
two_skills "$repo"
git -C "$repo" init -q && git -C "$repo" add -A \
    && git -C "$repo" -c user.name=t -c user.email=t@example.com commit -qm skills
imported_by() {
    local project=$tmp/$1 tool=$2
    shift 2
    mkdir -p "$project" && git -C "$project" init -q
    (cd "$project" && "$@") >"$tmp/tool.log" 2>&1 </dev/null || { cat "$tmp/tool.log" >&2; fail "$tool: $*"; }
    (cd "$project" && "$skillpm" --json import --yes) >"$tmp/import.json" 2>"$tmp/import.err" \
        || fail "skillpm import after $tool failed: $(cat "$tmp/import.json")"
    node -e '
const [file, tool] = process.argv.slice(1);
const r = JSON.parse(require("fs").readFileSync(file, "utf8"));
const names = r.skills.map((s) => s.name).sort().join(",");
if (names !== "csv-clean,pdf-helper") throw new Error(`rows: ${names}`);
for (const s of r.skills) {
  if (s.tool !== tool || s.status !== "re-resolved") throw new Error(JSON.stringify(s));
  if (!(s.adopted || []).length || (s.left_in_place || []).length) throw new Error(`not adopted: ${JSON.stringify(s)}`);
}
' "$tmp/import.json" "$tool" || fail "skillpm import's report after $tool: $(cat "$tmp/import.json")"
    (cd "$project" && "$skillpm" verify) >/dev/null || fail "skillpm verify failed after importing from $tool"
    (cd "$project" && "$skillpm" doctor) >"$tmp/doctor.log" || fail "doctor after $tool: $(cat "$tmp/doctor.log")"
    grep -q "no problems found" "$tmp/doctor.log" || fail "doctor after $tool: $(cat "$tmp/doctor.log")"
}
imported_by from-vercel vercel-skills "$tmp/tool/node_modules/.bin/skills" add "$repo" \
    -a claude-code codex --skill '*' -y
imported_by from-openskills openskills "$tmp/tool/node_modules/.bin/openskills" install "$repo/skills" -y

# The dependency: a package shipping two skills.
pkg=$tmp/pkg
two_skills "$pkg"
echo '{"name": "acme-tools", "version": "1.0.0"}' >"$pkg/package.json"

app=$tmp/app
mkdir -p "$app/.agents/skills" "$app/.claude/skills"
echo '{"name": "app", "version": "0.0.0", "dependencies": {"acme-tools": "file:../pkg"}}' >"$app/package.json"
cd "$app"
pnpm_install() { "$pnpm" install --store-dir "$tmp/store" >"$tmp/pnpm.log" 2>&1 || { cat "$tmp/pnpm.log" >&2; fail "pnpm install failed"; }; }

# 1. pnpm places the approved skills.
pnpm_install
grep -q "awaiting approval" "$tmp/pnpm.log" || fail "pnpm did not ask to approve the skills: $(cat "$tmp/pnpm.log")"
"$pnpm" approve --all >"$tmp/pnpm.log" 2>&1 || { cat "$tmp/pnpm.log" >&2; fail "pnpm approve --all failed"; }
pnpm_install
links() { find "$app/.agents/skills" "$app/.claude/skills" -mindepth 1 -maxdepth 1 -type l | sort; }
[ "$(links | wc -l)" = 4 ] || fail "pnpm did not link 2 skills into 2 agent folders: $(links)"
for link in $(links); do
    case $(readlink "$link") in
        *node_modules/*/skills/*) ;;
        *) fail "pnpm's link $link leads to $(readlink "$link")" ;;
    esac
done

# 2. skillpm sees who placed them, then imports each once.
"$skillpm" --json list --all >"$tmp/list.json" || fail "skillpm list --all failed"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const by = r.skills.filter((s) => s.placed_by === "pnpm").length;
if (by !== 4) { console.error(`placed_by pnpm on ${by} rows, not 4`); process.exit(1); }
' "$tmp/list.json" || fail "skillpm list --all does not name pnpm"
"$skillpm" --json import --yes >"$tmp/import.json" || fail "skillpm import failed: $(cat "$tmp/import.json")"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const names = r.skills.map((s) => s.name).sort().join(",");
if (names !== "csv-clean,pdf-helper") throw new Error(`rows: ${names}`);
for (const s of r.skills) {
  if (s.tool !== "pnpm" || s.status !== "imported") throw new Error(JSON.stringify(s));
  if ((s.adopted || []).length !== 2) throw new Error(`adopted: ${JSON.stringify(s)}`);
  if (!/`skills: false`.*`acme-tools@file:\.\.\/pkg`/.test(s.hand_off || "")) throw new Error(`hand_off: ${s.hand_off}`);
}
' "$tmp/import.json" || fail "skillpm import's report: $(cat "$tmp/import.json")"
[ -z "$(links)" ] || fail "pnpm's links are still there after import: $(links)"
"$skillpm" verify >/dev/null || fail "skillpm verify failed after import"

# 3. Why the import says what it says: pnpm links them again...
cp -a "$app" "$tmp/app-as-is"
pnpm_install
[ "$(links | wc -l)" = 4 ] || fail "pnpm $version no longer links approved skills beside skillpm's folders (links: $(links)); revise the import's hand-off"
"$skillpm" --json doctor >"$tmp/doctor.json" || true
[ "$(grep -c '"kind": "listed-twice"' "$tmp/doctor.json")" = 4 ] \
    || fail "doctor does not warn of each skill pnpm linked again: $(cat "$tmp/doctor.json")"
rm -rf "$app" && mv "$tmp/app-as-is" "$app" && cd "$app"
# ...and with the step taken, pnpm removes its own links and .gitignore.
grep -q 'skills: true' pnpm-workspace.yaml || fail "pnpm-workspace.yaml: $(cat pnpm-workspace.yaml)"
sed -i 's/skills: true/skills: false/' pnpm-workspace.yaml
pnpm_install
[ -z "$(links)" ] || fail "pnpm still links the skills after skills: false: $(links)"
"$skillpm" --json doctor >"$tmp/doctor.json" || true
! grep -q '"listed-twice"' "$tmp/doctor.json" || fail "doctor still warns: $(cat "$tmp/doctor.json")"
for folder in .agents/skills .claude/skills; do
    [ ! -e "$folder/.gitignore" ] || fail "pnpm's $folder/.gitignore is still there"
    for skill in pdf-helper csv-clean; do
        [ -f "$folder/$skill/SKILL.md" ] || fail "skillpm's $folder/$skill is gone"
    done
done
"$skillpm" verify >/dev/null || fail "skillpm verify failed after pnpm's install"
"$skillpm" --json list --all >"$tmp/list.json" || fail "skillpm list --all failed"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
if (r.skills.some((s) => s.placed_by)) throw new Error("a row still names another tool");
if (r.skills.length !== 4) throw new Error(`${r.skills.length} rows, not 4`);
' "$tmp/list.json" || fail "skillpm list --all after the hand-off: $(cat "$tmp/list.json")"

echo "PASS interop-import: vercel skills@$skills_version's and openskills@$openskills_version's installs imported and adopted; pnpm@$version's skill links imported, and its hand-off stops them coming back"
