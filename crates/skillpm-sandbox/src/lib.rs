//! `skillpm audit --run` (docs/audit.md, "Running a skill: audit --run"):
//! runs the scripts a skill tells the agent to run inside a bubblewrap
//! sandbox (a throwaway copy of the skill, a fake home of canary
//! credentials, no network but a loopback sink, time and memory limits),
//! records every relevant syscall with strace from outside the sandbox,
//! and turns what the scripts did into findings of the audit's kind
//! (`audit::behaviour`). Linux only; needs `bwrap` and `strace`.

// The modules of the layers below, under the names the code uses
// (docs/architecture.md).
use skillpm_audit as audit;
use skillpm_base::{classified, error, fs};
use skillpm_skill as skill;

mod canary;
pub mod init;
mod judge;
pub mod plan;
mod tls;
mod trace;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::audit::Finding;
use crate::error::{Classify, Exit};

/// A skill's time in the sandbox: all its scripts and what they leave
/// running, from the sandbox's start, on the sandbox's own clock (time its
/// processes waited for a CPU the machine gave to others does not count).
/// A script still running then is killed and the scripts not started are
/// not started; both are reported as `run-unfinished` (docs/audit.md, "The
/// deadline"). Sleeps return at once in the sandbox, so a delay does not
/// spend it.
pub const DEADLINE: Duration = Duration::from_millis(1500);
/// The wall-clock time a run may take however loaded the machine is: three
/// deadlines, and at least the deadline and four seconds (a CPU-bound
/// script gets a third of a CPU at a load average of 5 on two cores).
/// Past it the run ends as at the deadline.
fn wall_cap(deadline: Duration) -> Duration {
    (deadline * 3).max(deadline + Duration::from_secs(4))
}
/// The variable that sets another deadline (in seconds, `0.5`, `30`), read
/// by `ops` and passed to [`tools`].
pub const DEADLINE_VAR: &str = "SKILLPM_RUN_DEADLINE";
/// The syscalls that sleep: strace returns them at once (`-e inject`).
const SLEEPS: &str = "nanosleep,clock_nanosleep";
/// Address space of every process in the sandbox (`prlimit --as`).
const MEMORY_BYTES: u64 = 8 << 30;
/// The largest file a script may write (`prlimit --fsize`).
const FILE_BYTES: u64 = 256 << 20;
/// The argument that makes the skillpm binary the sandbox's first process.
pub const INIT_ARG: &str = "__sandbox-init";
/// Where the skillpm binary is mounted inside the sandbox.
const INIT_PATH: &str = "/run/skillpm/skillpm";
/// Where the sandbox sees how long strace has waited for a CPU (in
/// nanoseconds; the parent rewrites it as the run goes, read-only inside):
/// the sandbox's own clock does not count that wait (`init::Clock`).
const TRACER_WAIT: &str = "/run/skillpm/tracer-wait";
/// The system's CA bundle (Debian's and Ubuntu's, where OpenSSL, curl,
/// git and Python look): inside the sandbox it also holds the run's
/// authority (docs/audit.md, "Encrypted traffic").
const CA_BUNDLE: &str = "/etc/ssl/certs/ca-certificates.crt";
/// The variables that name a CA bundle to the clients that read one
/// (OpenSSL, Python's `requests`, curl, Node, git): all the system's own.
const CA_VARS: &[&str] = &[
    "SSL_CERT_FILE",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_CAINFO",
];
/// Folders searched for interpreters, inside and outside the sandbox alike.
const BIN_DIRS: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];
/// What of the host's /etc the sandbox sees (read-only; none of it is a
/// secret): the loader's cache, certificates, locale and interpreter
/// configuration. Its passwd, group, hosts, resolv.conf and nsswitch.conf
/// are the sandbox's own.
const ETC: &[&str] = &[
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "ssl",
    "ca-certificates",
    "ca-certificates.conf",
    "localtime",
    "mime.types",
    "os-release",
    "debian_version",
    "python3",
    "perl",
    "bash.bashrc",
];

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(
        "`audit --run` is unavailable here: {why}\n  it runs scripts only inside a Linux sandbox made with bubblewrap (`bwrap`) and watched with `strace`; install both (Debian/Ubuntu: `apt-get install bubblewrap strace`), or audit without `--run` (and without `[audit] run = true` in skills.toml); see docs/audit.md"
    )]
    Unavailable { why: String },
    #[error("cannot run `{skill}` in the sandbox: {detail}")]
    Failed { skill: String, detail: String },
    #[error(
        "{DEADLINE_VAR}={value:?} is not a deadline: give the seconds a skill's scripts may take in the sandbox (`1.5`, `30`; above 0, at most 3600), or unset it for the default ({} s)",
        DEADLINE.as_secs_f64()
    )]
    BadDeadline { value: String },
}

impl Classify for SandboxError {
    fn exit(&self) -> Exit {
        match self {
            SandboxError::Unavailable { .. } | SandboxError::Failed { .. } => Exit::Other,
            SandboxError::BadDeadline { .. } => Exit::Usage,
        }
    }
}
crate::classified!(SandboxError);

/// The programs the sandbox is made of.
#[derive(Debug, Clone)]
pub struct Tools {
    bwrap: PathBuf,
    strace: PathBuf,
    prlimit: Option<PathBuf>,
    /// This skillpm binary, the sandbox's first process.
    me: PathBuf,
    /// The real home folder, whose paths a script must not reach for.
    real_home: Option<String>,
    /// This machine's host name, which the sandbox takes too (a script
    /// that looks for a sandbox's name does not find one).
    hostname: String,
    /// See [`DEADLINE`].
    deadline: Duration,
}

/// The sandbox's programs, or why there is no sandbox here. `path` is the
/// `PATH` to search, `home` the real home folder and `deadline` the value
/// of [`DEADLINE_VAR`] (the caller reads the environment).
pub fn tools(
    path: Option<&str>,
    home: Option<&str>,
    deadline: Option<&str>,
) -> Result<Tools, SandboxError> {
    if !cfg!(target_os = "linux") {
        return Err(SandboxError::Unavailable {
            why: format!(
                "it needs Linux namespaces, and this is {}",
                std::env::consts::OS
            ),
        });
    }
    let find = |name: &str| {
        path.unwrap_or_default()
            .split(':')
            .filter(|d| !d.is_empty())
            .map(|d| Path::new(d).join(name))
            .find(|p| p.is_file())
    };
    let missing: Vec<&str> = ["bwrap", "strace"]
        .into_iter()
        .filter(|n| find(n).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(SandboxError::Unavailable {
            why: format!("`{}` not found on PATH", missing.join("` and `")),
        });
    }
    let me = std::env::current_exe().map_err(|e| SandboxError::Unavailable {
        why: format!("cannot find the skillpm binary itself ({e})"),
    })?;
    let deadline = match deadline.filter(|t| !t.trim().is_empty()) {
        None => DEADLINE,
        Some(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| SandboxError::BadDeadline {
                value: text.to_owned(),
            })?,
    };
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty() && h.len() <= 64)
        .unwrap_or_else(|| "localhost".to_owned());
    Ok(Tools {
        bwrap: find("bwrap").unwrap_or_default(),
        strace: find("strace").unwrap_or_default(),
        prlimit: find("prlimit"),
        me,
        real_home: home.map(str::to_owned),
        hostname,
        deadline,
    })
}

/// One script the run started.
#[derive(Debug, Clone, Serialize)]
pub struct ScriptRun {
    /// `/`-separated, relative to the skill.
    pub file: String,
    /// `python3`, `bash`, …; absent for a native program.
    pub interpreter: Option<String>,
    /// The arguments it was run with, as SKILL.md shows them (empty: the
    /// bare run; docs/audit.md, "What is run").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The hook whose event it was handed on stdin (`PreToolUse Bash`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    pub exit: Option<i32>,
    /// Killed at the deadline (or the wall-clock cap): what it would have
    /// done later was not seen.
    pub timed_out: bool,
    pub ms: u64,
    /// DNS names it looked up and TLS connections it opened (not findings
    /// by themselves: their content is a name, or encrypted).
    pub contacted: Vec<String>,
}

/// What `audit --run` did with one skill.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SkillRun {
    pub scripts: Vec<ScriptRun>,
    /// Files SKILL.md names that were not run, and why (an interpreter
    /// that is not installed, the deadline).
    pub skipped: Vec<plan::Skipped>,
    /// The run ended at the deadline: a script was killed or not started,
    /// and what it would have done was not observed.
    pub unfinished: bool,
    /// The deadline the run had, in milliseconds of the sandbox's own time.
    pub deadline_ms: u64,
    /// Wall-clock time the sandbox's processes waited for a CPU the machine
    /// gave to others: not counted in the deadline.
    pub waited_ms: u64,
    /// The run ended at the wall-clock cap (`wall_cap`) before its own
    /// time reached the deadline.
    pub capped: bool,
    /// The whole run, sandbox included.
    pub ms: u64,
    #[serde(skip)]
    pub findings: Vec<Finding>,
}

fn installed(program: &str) -> bool {
    BIN_DIRS
        .iter()
        .any(|d| Path::new(d).join(program).is_file())
}

/// Runs the scripts of the skill folder `dir` (named `name`) in the
/// sandbox and judges what they did.
pub fn run_skill(tools: &Tools, dir: &Path, name: &str) -> Result<SkillRun, SandboxError> {
    let start = Instant::now();
    let failed = |detail: String| SandboxError::Failed {
        skill: name.to_owned(),
        detail,
    };
    let (planned, skipped) = plan::plan(dir, &installed);
    let mut run = SkillRun {
        skipped,
        deadline_ms: tools.deadline.as_millis() as u64,
        ..SkillRun::default()
    };
    if planned.is_empty() {
        return Ok(run);
    }
    let work = crate::fs::temp::TempDir::create(&std::env::temp_dir(), "skillpm-run-")
        .map_err(|e| failed(format!("cannot make a temporary folder: {e}")))?;
    let canaries = canary::fresh();
    let authority = tls::RunAuthority::new().map_err(|e| failed(e.0))?;
    let skill_in = prepare(work.path(), dir, &canaries, &authority, &planned)
        .map_err(|e| failed(format!("cannot prepare the sandbox: {e}")))?;
    let spec = init::Spec {
        scripts: planned
            .iter()
            .map(|p| init::ScriptSpec {
                argv: p
                    .interpreter
                    .iter()
                    .cloned()
                    .chain([format!("{skill_in}/{}", p.file)])
                    .chain(p.args.iter().cloned())
                    .collect(),
                cwd: canary::PROJECT.to_owned(),
                stdin: p.stdin(),
            })
            .collect(),
        env: environment(&canaries),
        deadline_ms: tools.deadline.as_millis() as u64,
        wall_cap_ms: wall_cap(tools.deadline).as_millis() as u64,
        started_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
    };
    let spec = serde_json::to_string(&spec).map_err(|e| failed(e.to_string()))?;
    let budget = wall_cap(tools.deadline) + Duration::from_secs(5);
    let report =
        sandbox(tools, work.path(), &spec, &authority.key_pkcs8, budget).map_err(failed)?;
    run.waited_ms = report.waited_ms;
    run.capped = report.capped;
    let at = if report.capped {
        format!(
            "the wall-clock cap ({} ms; {} ms of it waiting for a CPU)",
            wall_cap(tools.deadline).as_millis(),
            report.waited_ms
        )
    } else {
        "the deadline".to_owned()
    };
    let per_script = trace::read(&work.path().join("trace"), "t", INIT_PATH)
        .map_err(|e| failed(format!("cannot read the trace: {e}")))?;
    let needles = canary::Needles::new(&canaries);
    let cx = judge::Known {
        canaries: &canaries,
        needles: &needles,
        real_home: tools.real_home.as_deref(),
    };
    for (i, p) in planned.iter().enumerate() {
        let Some(outcome) = report.scripts.get(i) else {
            // The deadline passed before it started.
            run.unfinished = true;
            run.findings.push(crate::audit::behaviour::finding(
                "run-unfinished",
                &p.file,
                "not started: the skill's earlier scripts used the whole deadline",
                &format!("deadline {} ms", tools.deadline.as_millis()),
            ));
            run.skipped.push(plan::Skipped {
                file: p.file.clone(),
                why: format!(
                    "the deadline ({} ms) passed before it started",
                    tools.deadline.as_millis()
                ),
            });
            continue;
        };
        if outcome.timed_out {
            run.unfinished = true;
            run.findings.push(crate::audit::behaviour::finding(
                "run-unfinished",
                &p.file,
                &format!("killed at {at} after {} ms", outcome.ms),
                &format!("deadline {} ms", tools.deadline.as_millis()),
            ));
        }
        let outcome = Some(outcome);
        let sink: Vec<&init::SinkEvent> = report
            .sink
            .iter()
            .filter(|e| sender(e, &per_script) == i)
            .collect();
        let calls = per_script.get(i).map_or(&[][..], Vec::as_slice);
        let judged = judge::judge(&p.file, calls, outcome, &sink, &cx);
        run.findings.extend(judged.findings);
        run.scripts.push(ScriptRun {
            contacted: judged.contacted,
            file: p.file.clone(),
            interpreter: p.interpreter.clone(),
            args: p.args.clone(),
            hook: p.hook.clone(),
            exit: outcome.and_then(|o| o.exit),
            timed_out: outcome.is_some_and(|o| o.timed_out),
            ms: outcome.map_or(0, |o| o.ms),
        });
    }
    run.ms = start.elapsed().as_millis() as u64;
    Ok(run)
}

/// The script that sent what the sink received: the one whose process
/// used the sender's socket (scripts run side by side), else the one
/// started last when it arrived.
fn sender(event: &init::SinkEvent, per_script: &[trace::ScriptCalls]) -> usize {
    (event.socket != 0)
        .then(|| {
            per_script
                .iter()
                .position(|calls| calls.iter().any(|c| c.socket() == Some(event.socket)))
        })
        .flatten()
        .unwrap_or(event.script)
}

/// The project the scripts run in, as an agent runs them (its root is
/// their working directory): a git checkout with a remote, and the files
/// that say what kinds of project it is (node, Python, a container, CI,
/// Terraform), so that a script that acts only in a project of some kind
/// acts in the run (docs/audit.md, "What is
/// run"). A name ending in `/` is a folder.
const PROJECT_FILES: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (
        ".git/config",
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://github.com/acme/webapp.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n",
    ),
    (".git/objects/", ""),
    (".git/refs/heads/", ""),
    (".gitignore", "node_modules/\n.env\n"),
    ("README.md", "# webapp\n\nThe team's web app and its API.\n"),
    (
        "package.json",
        "{\n  \"name\": \"webapp\",\n  \"version\": \"1.4.2\",\n  \"private\": true,\n  \"scripts\": {\"build\": \"vite build\", \"test\": \"vitest run\"},\n  \"dependencies\": {\"react\": \"^19.1.0\"}\n}\n",
    ),
    (
        "pyproject.toml",
        "[project]\nname = \"webapp-api\"\nversion = \"1.4.2\"\ndependencies = [\"fastapi>=0.115\"]\n",
    ),
    ("requirements.txt", "fastapi>=0.115\nuvicorn>=0.30\n"),
    (
        "src/app.py",
        "from fastapi import FastAPI\n\napp = FastAPI()\n",
    ),
    ("src/index.js", "export const hello = () => 'hello';\n"),
    ("Dockerfile", "FROM node:22-slim\nCOPY . /app\nRUN npm ci\n"),
    (
        ".github/workflows/ci.yml",
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v5\n      - run: npm test\n",
    ),
    (
        "infra/main.tf",
        "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n",
    ),
];

/// A sample input's text by its extension: the files the filled-in
/// placeholders of shown command lines name (`sample.pdf`), in the
/// project, where the scripts run.
fn sample_text(name: &str) -> &'static str {
    match name.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "json" => "{\"name\": \"sample\", \"items\": [1, 2, 3]}\n",
        "csv" => "id,name\n1,sample\n",
        "yaml" | "yml" => "name: sample\nitems: [1, 2]\n",
        "html" | "htm" => "<html><body><p>sample</p></body></html>\n",
        "pdf" => {
            "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
        }
        _ => "sample input\n",
    }
}

/// Fills `work`: `home/` (the fake home with the canaries, the project of
/// [`PROJECT_FILES`] with the sample inputs `planned` names, and the
/// skill's copy under `project/.claude/skills/`), `etc/` (the sandbox's
/// own files, the CA bundle with the run's `authority` among the
/// system's) and `trace/`. Returns the skill's folder as the sandbox sees it.
fn prepare(
    work: &Path,
    skill: &Path,
    canaries: &[canary::Canary],
    authority: &tls::RunAuthority,
    planned: &[plan::Planned],
) -> std::io::Result<String> {
    let home = work.join("home");
    let project = canary::PROJECT.trim_start_matches(canary::HOME);
    let samples = (planned.iter().flat_map(|p| &p.args))
        .filter(|a| plan::is_sample(a))
        .map(|a| (format!("{project}/{a}"), sample_text(a).to_owned()));
    let files = (canaries.iter())
        .filter_map(|c| {
            Some((
                c.path.as_deref()?.strip_prefix(canary::HOME)?.to_owned(),
                c.content.clone(),
            ))
        })
        .chain(
            PROJECT_FILES
                .iter()
                .map(|(rel, text)| (format!("{project}/{rel}"), (*text).to_owned())),
        )
        .chain(samples);
    for (path, text) in files {
        let target = home.join(path.trim_start_matches('/'));
        if path.ends_with('/') {
            std::fs::create_dir_all(&target)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, text)?;
    }
    let inside = format!("{}/.claude/skills/skill", canary::PROJECT);
    let rel = inside
        .trim_start_matches(canary::HOME)
        .trim_start_matches('/');
    copy_tree(skill, &home.join(rel))?;
    let etc = work.join("etc");
    std::fs::create_dir_all(&etc)?;
    // The sandbox runs as the caller's user (root in CI): name it `user`.
    let uid = owner(work);
    let user = if uid == 0 { "root" } else { "user" };
    std::fs::write(
        etc.join("passwd"),
        format!("{user}:x:{uid}:{uid}:{user}:{}:/bin/sh\n", canary::HOME),
    )?;
    std::fs::write(etc.join("group"), format!("{user}:x:{uid}:\n"))?;
    std::fs::write(
        etc.join("hosts"),
        "127.0.0.1 localhost sandbox\n::1 localhost\n",
    )?;
    std::fs::write(
        etc.join("resolv.conf"),
        "nameserver 127.0.0.1\noptions attempts:1 timeout:1\n",
    )?;
    std::fs::write(
        etc.join("nsswitch.conf"),
        "passwd: files\ngroup: files\nhosts: files dns\n",
    )?;
    let mut bundle = std::fs::read_to_string(CA_BUNDLE).unwrap_or_default();
    if !bundle.is_empty() && !bundle.ends_with('\n') {
        bundle.push('\n');
    }
    bundle.push_str(&authority.pem());
    std::fs::write(etc.join("ca-certificates.crt"), bundle)?;
    std::fs::create_dir_all(work.join("trace"))?;
    std::fs::write(work.join("tracer-wait"), format!("{:020}\n", 0))?;
    Ok(inside)
}

#[cfg(unix)]
fn owner(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).map_or(0, |m| m.uid())
}

#[cfg(not(unix))]
fn owner(_path: &Path) -> u32 {
    0
}

/// Copies the skill's folders and regular files (execute bits kept;
/// symbolic links are not followed, as the audit does not follow them).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// What package managers are told: the sandbox has no network, so they
/// work from their cache or fail at once instead of retrying a registry
/// until the deadline (npm, pnpm and yarn 1 read `npm_config_*`; pip,
/// uv, yarn 2+ and corepack their own), and they skip their update and
/// advisory checks.
const OFFLINE: &[(&str, &str)] = &[
    ("npm_config_offline", "true"),
    ("npm_config_audit", "false"),
    ("npm_config_fund", "false"),
    ("npm_config_update_notifier", "false"),
    ("npm_config_fetch_retries", "0"),
    ("NO_UPDATE_NOTIFIER", "1"),
    ("COREPACK_ENABLE_NETWORK", "0"),
    ("YARN_ENABLE_OFFLINE_MODE", "1"),
    ("PIP_NO_INDEX", "1"),
    ("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    ("UV_OFFLINE", "1"),
];

/// The scripts' environment: an ordinary agent session's, package
/// managers told they are offline ([`OFFLINE`]), and the canary tokens.
fn environment(canaries: &[canary::Canary]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = [
        ("HOME", canary::HOME),
        ("USER", "user"),
        ("LOGNAME", "user"),
        ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        // UTF-8 text (`LC_CTYPE`, by the name its file has) and the C
        // locale's other categories, which C.UTF-8 only copies: glibc then
        // opens one locale file per program instead of 13, each under two
        // names for `LANG=C.UTF-8`, and every open is a stop for strace in
        // every program a script starts (docs/audit.md, "Measured").
        ("LANG", "C"),
        ("LC_CTYPE", "C.utf8"),
        ("TMPDIR", "/tmp"),
        ("SHELL", "/bin/sh"),
        ("TERM", "dumb"),
    ]
    .iter()
    .chain(OFFLINE)
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .chain(
        CA_VARS
            .iter()
            .map(|k| ((*k).to_owned(), CA_BUNDLE.to_owned())),
    )
    .chain([("SSL_CERT_DIR".to_owned(), "/etc/ssl/certs".to_owned())])
    .collect();
    env.extend(
        canaries
            .iter()
            .filter_map(|c| Some((c.var.clone()?, c.content.clone()))),
    );
    env
}

/// The bubblewrap arguments: system folders read-only, the sandbox's own
/// /etc, a fresh /tmp, /dev and /proc, the fake home read-write, and
/// every namespace new (no network but its own loopback).
fn bwrap_args(work: &Path, me: &Path, hostname: &str) -> Vec<String> {
    let mut args: Vec<String> = [
        "--die-with-parent",
        "--unshare-all",
        "--new-session",
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/local/bin:/usr/bin:/bin",
        // Run by root, bubblewrap would keep every capability inside the
        // sandbox's namespaces (remounting its read-only binds, reading
        // its first process's memory): none but low ports.
        "--cap-drop",
        "ALL",
        "--cap-add",
        "CAP_NET_BIND_SERVICE",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let mut add = |words: &[&str]| args.extend(words.iter().map(|s| (*s).to_owned()));
    add(&["--hostname", hostname]);
    for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        match std::fs::read_link(top) {
            Ok(target) => add(&["--symlink", &target.to_string_lossy(), top]),
            Err(_) if Path::new(top).is_dir() => add(&["--ro-bind", top, top]),
            Err(_) => {}
        }
    }
    add(&[
        "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--dir", "/etc",
    ]);
    // The CA bundle is bound over the system's; where the host has none,
    // the sandbox's /etc/ssl holds only it (a bind needs its place).
    let own_ssl = !Path::new(CA_BUNDLE).is_file();
    for name in ETC.iter().filter(|n| !(own_ssl && **n == "ssl")) {
        let host = format!("/etc/{name}");
        add(&["--ro-bind-try", &host, &host]);
    }
    let work = work.to_string_lossy();
    add(&[
        "--ro-bind",
        &format!("{work}/etc/ca-certificates.crt"),
        CA_BUNDLE,
    ]);
    for name in ["passwd", "group", "hosts", "resolv.conf", "nsswitch.conf"] {
        add(&[
            "--ro-bind",
            &format!("{work}/etc/{name}"),
            &format!("/etc/{name}"),
        ]);
    }
    add(&[
        "--bind",
        &format!("{work}/home"),
        canary::HOME,
        "--ro-bind",
        &me.to_string_lossy(),
        INIT_PATH,
        "--ro-bind",
        &format!("{work}/tracer-wait"),
        TRACER_WAIT,
        "--chdir",
        canary::HOME,
    ]);
    args
}

/// Runs the sandbox under strace (and prlimit) and returns the first
/// process's report.
fn sandbox(
    tools: &Tools,
    work: &Path,
    spec: &str,
    key: &[u8],
    budget: Duration,
) -> Result<init::SandboxStartReport, String> {
    let mut cmd = match &tools.prlimit {
        Some(prlimit) => {
            let mut c = Command::new(prlimit);
            c.arg(format!("--as={MEMORY_BYTES}"))
                .arg(format!("--fsize={FILE_BYTES}"))
                .arg("--core=0")
                .arg(format!("--cpu={}", wall_cap(tools.deadline).as_secs() + 5))
                .arg("--")
                .arg(&tools.strace);
            c
        }
        None => Command::new(&tools.strace),
    };
    cmd.args([
        "-ff",
        "-qq",
        "--seccomp-bpf",
        "--pidns-translation",
        "-x",
        "-yy",
    ])
    .args(["-s", "65536", "-e"])
    .arg(format!("trace={},{SLEEPS}", trace::TRACED))
    .arg("-e")
    .arg(format!("inject={SLEEPS}:retval=0"))
    .arg("-o")
    .arg(work.join("trace").join("t"))
    .arg("--")
    .arg(&tools.bwrap)
    .args(bwrap_args(work, &tools.me, &tools.hostname))
    .arg("--")
    .arg(INIT_PATH)
    .arg(INIT_ARG)
    .arg(spec)
    .env_clear()
    .env("PATH", "/usr/local/bin:/usr/bin:/bin")
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start strace: {e}"))?;
    // The authority's key, to the sandbox's first process only (it reads
    // stdin to its end before any script starts; the scripts' is empty).
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write as _;
        let _ = stdin.write_all(key);
    }
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let start = Instant::now();
    let mut tracer_wait = TracerWait::open(work, child.id());
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > budget => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => {
                // Only a run that reaches its deadline in wall-clock time
                // reads it (init::Clock).
                if start.elapsed() >= tools.deadline.saturating_sub(Duration::from_millis(50)) {
                    tracer_wait.update();
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("cannot wait for the sandbox: {e}")),
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    let report = out.trim_start().starts_with('{').then_some(out.trim());
    match (report, status) {
        (Some(text), _) => {
            serde_json::from_str(text).map_err(|e| format!("unreadable report ({e})"))
        }
        (None, None) => Err(format!(
            "the sandbox did not finish within {} s",
            budget.as_secs()
        )),
        (None, Some(status)) => Err(format!(
            "the sandbox ended ({status}) without a report: {}",
            err.trim().lines().last().unwrap_or("no message")
        )),
    }
}

/// The parent's side of [`TRACER_WAIT`]: strace's wait for a CPU (the
/// second field of its `/proc/PID/schedstat`), rewritten in place.
struct TracerWait {
    file: Option<std::fs::File>,
    strace: u32,
}

impl TracerWait {
    fn open(work: &Path, strace: u32) -> TracerWait {
        TracerWait {
            file: std::fs::OpenOptions::new()
                .write(true)
                .open(work.join("tracer-wait"))
                .ok(),
            strace,
        }
    }

    fn update(&mut self) {
        use std::io::{Seek as _, Write as _};
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let waited = std::fs::read_to_string(format!("/proc/{}/schedstat", self.strace))
            .ok()
            .and_then(|t| t.split_whitespace().nth(1)?.parse::<u64>().ok());
        if let Some(ns) = waited {
            // Same width each time: a reader sees one whole number.
            let _ = file.seek(std::io::SeekFrom::Start(0));
            let _ = file.write_all(format!("{ns:020}\n").as_bytes());
        }
    }
}
