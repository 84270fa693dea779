//! The install benchmark of issue 13: `skillpm` on the real release binary,
//! next to `cp -r` of the same files, with the child's peak memory and, where
//! `strace` exists, its count of flush, open and rename calls.
//!
//! ```text
//! cargo run --release --example bench_install
//! BENCH_SIZES=5,100 BENCH_RUNS=5 cargo run --release --example bench_install
//! BENCH_SIZES=500 BENCH_RUNS=0 cargo run --example bench_install   # strace counts only
//! ```
//!
//! For each size (5, 100 and 500 skills; 5 files of a few KB each, `.tar.gz`
//! artifacts with digests) and each registry (a local folder read through
//! `file://`, and the loopback axum server of the test harness), it times:
//!
//! - cold: `add --all --yes` into a new project with an empty cache
//!   (index, download, verify, unpack, store, link, lock);
//! - warm: `install --locked` into a fresh clone of that project (the
//!   committed `skills.toml` + `skills.lock`), the cache kept: link only;
//! - no-op: `install --frozen` again in the warm project;
//! - `cp -r` of the same unpacked files;
//!
//! each on a quiet file system (`sync` first) and right after 256 MiB of
//! unsynced writes (the state of a CI runner after a checkout), where every
//! fsync also waits for the other writes. Median and fastest of
//! `BENCH_RUNS` (default 3) runs; CPU is user + system time, peak memory the
//! child's `ru_maxrss` (wait4).
//!
//! Reading the figures: most of the work is creating files, folders and
//! links, so the file system decides a lot. Set `BENCH_INSTALL_DIR=/dev/shm/…`
//! to measure on tmpfs, where only skillpm's own work remains.
//! `BENCH_SKILLPM_BIN=/abs/path/skillpm` times another build (to compare
//! before and after a change).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use support::registry::{Registry, SkillFiles};
use support::server::TestServer;

/// Bytes written (not synced) before each measurement of the "dirty" rows.
const DIRTY_BYTES: usize = 256 << 20;

fn main() {
    let temp = tempfile::tempdir().expect("temp dir");
    let kept = std::env::var_os("BENCH_INSTALL_DIR").map(PathBuf::from);
    let work = kept.as_deref().unwrap_or(temp.path());
    let bin = release_binary();
    let runs: usize = env_or("BENCH_RUNS", "3").parse().expect("BENCH_RUNS");
    let sizes: Vec<usize> = env_or("BENCH_SIZES", "5,100,500")
        .split(',')
        .map(|n| n.trim().parse().expect("BENCH_SIZES"))
        .collect();
    println!(
        "machine: {} cores, {}; binary {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        kernel(),
        bin.display()
    );
    for size in sizes {
        bench_size(&bin, work, size, runs);
    }
}

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

fn kernel() -> String {
    Command::new("uname")
        .arg("-sr")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn bench_size(bin: &Path, work: &Path, size: usize, runs: usize) {
    let base = work.join(format!("n{size}"));
    let skills: Vec<SkillFiles> = (0..size).map(SkillFiles::bench).collect();
    let site = base.join("site");
    Registry::new(&site).write_v2(&skills);
    let server = TestServer::serve(&site);
    let plain = base.join("plain");
    for s in &skills {
        s.write_tree(&plain);
    }
    let (files, bytes) = count(&plain);
    let local = url_of_dir(&site);
    println!(
        "\n{size} skills ({files} files, {} KB; links into 2 agent folders), {runs} runs each",
        bytes / 1024
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>9}",
        "case", "median", "min", "CPU", "peak RSS"
    );
    for (registry, url) in [("local", local.as_str()), ("http", &server.base())] {
        if runs == 0 {
            break;
        }
        for dirty in [false, true] {
            let when = if dirty {
                "after 256 MiB unsynced"
            } else {
                "quiet"
            };
            let (mut cold, mut warm, mut noop, mut copy) = (vec![], vec![], vec![], vec![]);
            for run in 0..runs {
                let tag = format!("{registry}-{}-{run}", if dirty { "dirty" } else { "quiet" });
                let env = Env::new(&base, &format!("home-{tag}"), &format!("cache-{tag}"));
                let a = base.join(format!("cold-{tag}"));
                std::fs::create_dir_all(&a).unwrap();
                std::fs::write(a.join("skills.toml"), manifest(url)).unwrap();
                settle(&base, dirty);
                cold.push(env.measure(
                    bin,
                    &a,
                    &["add", "--source", "bench", "--all", "--yes", "--quiet"],
                ));
                assert_eq!(count(&a.join(".agents/skills")), (files, bytes));
                let b = clone(&a, &base.join(format!("warm-{tag}")));
                settle(&base, dirty);
                warm.push(env.measure(bin, &b, &["install", "--locked", "--quiet"]));
                assert_eq!(count(&b.join(".claude/skills")), (files, bytes));
                settle(&base, dirty);
                noop.push(env.measure(bin, &b, &["install", "--frozen", "--quiet"]));
                settle(&base, dirty);
                let mut cp = Command::new("cp");
                cp.arg("-r")
                    .arg(&plain)
                    .arg(base.join(format!("copy-{tag}")));
                copy.push(timed(cp));
            }
            row(&format!("{registry}, {when}: cold add --all"), &cold);
            row(&format!("{registry}, {when}: warm install --locked"), &warm);
            row(
                &format!("{registry}, {when}: no-op install --frozen"),
                &noop,
            );
            row(&format!("{registry}, {when}: cp -r"), &copy);
        }
    }
    strace_counts(bin, &base, &local, files, bytes);
}

/// `sync`s the file system (quiet), then for the dirty case leaves 256 MiB
/// of fresh, unsynced writes behind.
fn settle(base: &Path, dirty: bool) {
    let _ = Command::new("sync").status();
    if dirty {
        let junk = base.join("dirty.bin");
        let _ = std::fs::remove_file(&junk);
        let chunk = vec![0x5au8; 1 << 20];
        let mut file = std::fs::File::create(&junk).unwrap();
        for _ in 0..DIRTY_BYTES / chunk.len() {
            std::io::Write::write_all(&mut file, &chunk).unwrap();
        }
    }
}

/// Counts the system calls of one cold `add --all` and one warm install.
fn strace_counts(bin: &Path, base: &Path, url: &str, files: usize, bytes: u64) {
    if Command::new("strace").arg("-V").output().is_err() {
        println!("(strace not found: no system-call counts)");
        return;
    }
    let env = Env::new(base, "home-strace", "cache-strace");
    let a = base.join("cold-strace");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("skills.toml"), manifest(url)).unwrap();
    let b = base.join("warm-strace");
    for (label, dir, args) in [
        (
            "cold add --all (local)",
            &a,
            &["add", "--source", "bench", "--all", "--yes", "--quiet"][..],
        ),
        (
            "warm install --locked",
            &b,
            &["install", "--locked", "--quiet"][..],
        ),
    ] {
        if label.starts_with("warm") {
            clone(&a, &b);
        }
        let log = base.join("strace.txt");
        let mut cmd = env.command(bin, dir, args);
        let program = cmd.get_program().to_owned();
        let mut traced = Command::new("strace");
        traced
            .args(["-f", "-c", "-o"])
            .arg(&log)
            .arg(program)
            .args(cmd.get_args());
        traced.current_dir(dir).env_clear();
        for (k, v) in cmd.get_envs() {
            if let Some(v) = v {
                traced.env(k, v);
            }
        }
        let _ = &mut cmd;
        timed(traced);
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let calls = |names: &[&str]| -> u64 {
            text.lines()
                .filter_map(|l| {
                    let cols: Vec<&str> = l.split_whitespace().collect();
                    let name = cols.last()?;
                    names
                        .contains(name)
                        .then(|| cols.get(3)?.parse::<u64>().ok())?
                })
                .sum()
        };
        println!(
            "strace {label}: {} fsync-class (fsync/fdatasync/syncfs/sync), {} openat, {} rename, {} mkdir",
            calls(&["fsync", "fdatasync", "syncfs", "sync", "sync_file_range"]),
            calls(&["openat", "open"]),
            calls(&["rename", "renameat", "renameat2"]),
            calls(&["mkdir", "mkdirat"]),
        );
        println!(
            "strace {label}: {} chmod-class (chmod/fchmod/fchmodat), {} statx/newfstatat",
            calls(&["chmod", "fchmod", "fchmodat", "fchmodat2"]),
            calls(&["statx", "newfstatat", "fstat", "stat", "lstat"]),
        );
        if std::env::var_os("BENCH_STRACE_TABLE").is_some() {
            println!("{text}");
        }
    }
    assert_eq!(count(&b.join(".agents/skills")), (files, bytes));
}

fn url_of_dir(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

fn manifest(url: &str) -> String {
    format!(
        "[install]\nscope = \"repo\"\nagents = [\"agents\", \"claude\"]\n\n\
         [[source]]\nname = \"bench\"\nurl = \"{url}\"\n\n[skills]\n"
    )
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

fn row(label: &str, samples: &[Sample]) {
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
        "{label:<44} {:>9} {:>9} {:>9} {peak:>9}",
        ms(time),
        ms(fastest),
        ms(cpu)
    );
}
