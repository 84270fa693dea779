//! `skillpm install` of 100 skills, timed on the real release binary, next to
//! `cp -r` of the same files, with the child's peak memory.
//!
//! ```text
//! cargo run --release --example bench_install
//! ```
//!
//! A registry of 100 skills (5 files each, a few KB per file, `.tar.gz`
//! artifacts with digests) is served by the loopback axum server of the test
//! harness, started in this process. A project declaring all 100 is locked
//! once; every measured run then starts from a committed-state copy
//! (`skills.toml` + `skills.lock`, nothing linked), like a fresh clone:
//!
//! - (a) cold: a new, empty cache: download, verify, unpack, store, link;
//! - (b) warm: a new project, the cache kept from (a): link only;
//! - (c) no-op: `install` again in the project (b) installed.
//!
//! Peak memory is the child's `ru_maxrss` and CPU its user + system time
//! (wait4). Targets (issue 5, on 2 cores): (a) under 1 s, (b) no slower than
//! `cp -r`, (c) under 50 ms, and peak memory under 40 MB.
//!
//! Reading the figures: most of the work is creating files, folders and
//! links, so the file system decides a lot. On a busy ext4 the kernel's inode
//! allocation grows slower with churn and every column drifts between
//! invocations; compare rows of one invocation (they ran interleaved), or set
//! `BENCH_INSTALL_DIR=/dev/shm/…` to measure on tmpfs, where only skillpm's
//! own work remains. `BENCH_SKILLPM_BIN=/abs/path/skillpm` times another
//! build (to compare before and after a change).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use support::registry::{Registry, SkillFiles};
use support::server::TestServer;

const SKILLS: usize = 100;
const RUNS: usize = 7;

fn main() {
    // BENCH_INSTALL_DIR keeps the projects and caches for profiling a case
    // by hand (cases (b) and (c) need no server).
    let temp = tempfile::tempdir().expect("temp dir");
    let kept = std::env::var_os("BENCH_INSTALL_DIR").map(PathBuf::from);
    let work = kept.as_deref().unwrap_or(temp.path());
    let bin = release_binary();

    eprintln!("building a registry of {SKILLS} skills …");
    let skills: Vec<SkillFiles> = (0..SKILLS).map(skill).collect();
    let site = work.join("site");
    Registry::new(&site).write_v2(&skills);
    let server = TestServer::serve(&site);
    let plain = work.join("plain");
    for s in &skills {
        s.write_tree(&plain);
    }
    let (files, bytes) = count(&plain);

    // Lock once, as the team did when adding the skills.
    let template = work.join("template");
    std::fs::create_dir_all(&template).unwrap();
    std::fs::write(template.join("skills.toml"), manifest(&server, &skills)).unwrap();
    let setup = Env::new(work, "setup-home", "setup-cache");
    let out = setup.run(&bin, &template, &["install", "--yes", "--quiet"]);
    assert!(out.ok, "locking failed:\n{}", out.stderr);
    std::fs::remove_dir_all(template.join(".agents")).unwrap();
    std::fs::remove_dir_all(template.join(".claude")).unwrap();

    let mut cold = Vec::new();
    let mut warm = Vec::new();
    let mut noop = Vec::new();
    let mut copy = Vec::new();
    for run in 0..RUNS {
        let env = Env::new(work, &format!("home-{run}"), &format!("cache-{run}"));
        let a = clone(&template, &work.join(format!("cold-{run}")));
        server.clear_log();
        cold.push(env.measure(&bin, &a, &["install"]));
        assert_eq!(server.requests().len(), SKILLS, "one request per artifact");
        assert_eq!(count(&a.join(".agents/skills")), (files, bytes));
        let b = clone(&template, &work.join(format!("warm-{run}")));
        warm.push(env.measure(&bin, &b, &["install"]));
        noop.push(env.measure(&bin, &b, &["install"]));
        assert_eq!(count(&b.join(".claude/skills")), (files, bytes));

        let mut cp = Command::new("cp");
        cp.arg("-r")
            .arg(&plain)
            .arg(work.join(format!("copy-{run}")));
        copy.push(timed(cp));
    }

    println!(
        "install of {SKILLS} skills ({files} files, {} KB; links into 2 agent folders), {RUNS} runs each",
        bytes / 1024
    );
    println!(
        "{:<40} {:>9} {:>9} {:>9} {:>10}   target",
        "case", "median", "min", "CPU", "peak RSS"
    );
    row(
        "(a) cold: loopback registry, empty cache",
        &cold,
        "< 1 s, < 40 MB",
    );
    row("(b) warm cache, fresh project", &warm, "<= cp -r, < 40 MB");
    row("(c) already installed (no-op)", &noop, "< 50 ms, < 40 MB");
    row("cp -r of the same files", &copy, "");
}

/// `skill-NNN`: SKILL.md plus 4 files of 2-5 KB, one of them an executable script.
fn skill(i: usize) -> SkillFiles {
    let filler = |label: &str, kb: usize| {
        let line = format!("{label} of skill {i}: some reference text for the agent.\n");
        line.repeat(kb * 1024 / line.len() + 1)
    };
    SkillFiles::new(&format!("skill-{i:03}"))
        .description(&format!("Benchmark skill number {i}"))
        .version("1.0.0")
        .file("references/GUIDE.md", filler("guide", 4))
        .file("references/API.md", filler("api", 3))
        .file("assets/template.md", filler("template", 2))
        .executable(
            "scripts/run.sh",
            format!("#!/bin/sh\n{}", filler("# script", 2)),
        )
}

fn manifest(server: &TestServer, skills: &[SkillFiles]) -> String {
    let mut text = format!(
        "[install]\nscope = \"repo\"\nagents = [\"agents\", \"claude\"]\n\n\
         [[source]]\nname = \"bench\"\nurl = \"{}\"\n\n[skills]\n",
        server.base()
    );
    for s in skills {
        text.push_str(&format!("{} = {{ source = \"bench\" }}\n", s.name));
    }
    text
}

/// A project as committed: skills.toml and skills.lock only.
fn clone(template: &Path, dest: &Path) -> PathBuf {
    std::fs::create_dir_all(dest).unwrap();
    for f in ["skills.toml", "skills.lock"] {
        std::fs::copy(template.join(f), dest.join(f)).unwrap();
    }
    dest.to_owned()
}

/// (files, bytes) under `dir`, following links.
fn count(dir: &Path) -> (usize, u64) {
    let mut n = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = std::fs::metadata(&path).unwrap();
        if meta.is_dir() {
            let (f, b) = count(&path);
            n = (n.0 + f, n.1 + b);
        } else {
            n = (n.0 + 1, n.1 + meta.len());
        }
    }
    n
}

/// `target/release/skillpm`, rebuilt first if it is stale; `BENCH_SKILLPM_BIN`
/// names another binary (to compare builds).
fn release_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("BENCH_SKILLPM_BIN") {
        return PathBuf::from(bin);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--bin", "skillpm"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build --release failed");
    let exe = std::env::current_exe().expect("current exe");
    // target/release/examples/bench_install → target/release/skillpm
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .expect("target dir")
        .join(format!("skillpm{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.is_file(), "{} is missing", bin.display());
    bin
}

/// A user: HOME and cache in the work dir.
struct Env {
    home: PathBuf,
    cache: PathBuf,
}

struct Output {
    ok: bool,
    stderr: String,
}

#[derive(Clone, Copy)]
struct Sample {
    time: Duration,
    /// User + system CPU time of the child (all its threads).
    cpu: Duration,
    peak_kib: u64,
}

impl Env {
    fn new(work: &Path, home: &str, cache: &str) -> Self {
        let env = Env {
            home: work.join(home),
            cache: work.join(cache),
        };
        std::fs::create_dir_all(&env.home).unwrap();
        env
    }

    fn command(&self, bin: &Path, project: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(bin);
        cmd.current_dir(project)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("SKILLPM_CACHE_DIR", &self.cache)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("CLAUDE_CONFIG_DIR", self.home.join(".claude"))
            .env("CODEX_HOME", self.home.join(".codex"))
            .env("NO_COLOR", "1");
        cmd
    }

    fn run(&self, bin: &Path, project: &Path, args: &[&str]) -> Output {
        let out = self
            .command(bin, project, args)
            .output()
            .expect("skillpm runs");
        Output {
            ok: out.status.success(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    fn measure(&self, bin: &Path, project: &Path, args: &[&str]) -> Sample {
        timed(self.command(bin, project, args))
    }
}

/// Runs `cmd` to completion (it must succeed): wall time and peak RSS.
fn timed(mut cmd: Command) -> Sample {
    // stderr goes to a file, not a pipe nobody drains while we wait.
    let log = tempfile::tempfile().expect("temp file");
    cmd.stdout(std::process::Stdio::null())
        .stderr(log.try_clone().expect("temp file"));
    let started = Instant::now();
    let child = cmd.spawn().expect("command runs");
    let (status, peak_kib, cpu) = wait_with_peak(child);
    let time = started.elapsed();
    if status != 0 {
        use std::io::{Read, Seek};
        let mut log = log;
        let mut text = String::new();
        let _ = log.rewind().and_then(|()| log.read_to_string(&mut text));
        panic!("{cmd:?} failed ({status}):\n{text}");
    }
    Sample {
        time,
        cpu,
        peak_kib,
    }
}

/// Waits for `child` and returns (exit status, peak resident KiB, CPU time).
#[cfg(unix)]
fn wait_with_peak(child: std::process::Child) -> (i32, u64, Duration) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for (`child` is leaked below
    // so std never waits on it again); both pointers are valid for writes.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child);
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    // Linux reports KiB, macOS bytes.
    let max = usage.ru_maxrss as u64;
    let kib = if cfg!(target_os = "macos") {
        max / 1024
    } else {
        max
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (code, kib, tv(usage.ru_utime) + tv(usage.ru_stime))
}

#[cfg(not(unix))]
fn wait_with_peak(mut child: std::process::Child) -> (i32, u64, Duration) {
    let status = child.wait().expect("wait");
    (status.code().unwrap_or(-1), 0, Duration::ZERO)
}

fn row(label: &str, samples: &[Sample], target: &str) {
    let median = |mut v: Vec<Duration>| {
        v.sort();
        (v[v.len() / 2], v[0])
    };
    let (time, fastest) = median(samples.iter().map(|s| s.time).collect());
    let (cpu, _) = median(samples.iter().map(|s| s.cpu).collect());
    let peak = samples.iter().map(|s| s.peak_kib).max().unwrap_or(0);
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    let peak = if peak == 0 {
        "-".to_owned()
    } else {
        format!("{:.1} MB", peak as f64 / 1024.0)
    };
    println!(
        "{label:<40} {:>9} {:>9} {:>9} {peak:>10}   {target}",
        ms(time),
        ms(fastest),
        ms(cpu)
    );
}
