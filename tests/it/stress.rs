//! Many real `skillpm` processes on one shared cache (issue 13): rounds of
//! 16 concurrent `install --locked` of four overlapping locks, with
//! `cache gc` and `cache verify` looping beside them and some installs
//! killed with SIGKILL. Every install that was not killed must succeed,
//! every such project must verify, and the cache must end verified and free
//! of debris. No timing is asserted; the kills land wherever they land.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crate::support::cli::Sandbox;
use crate::support::registry::{Registry, SkillFiles};
use crate::support::server::TestServer;
use crate::support::succeed;

const SKILLS: usize = 24;
const ROUNDS: usize = 3;
const PER_ROUND: usize = 16;
const KILLS_PER_ROUND: usize = 3;
/// Four locks of twelve skills each, every one sharing skills with the others.
const LOCKS: [std::ops::Range<usize>; 4] = [0..12, 6..18, 12..24, 3..15];

fn skill(i: usize) -> SkillFiles {
    SkillFiles::new(&format!("stress-{i:02}"))
        .description(&format!("Stress skill {i}"))
        .version("1.0.0")
        .file("references/GUIDE.md", format!("guide {i}\n").repeat(200))
        .file("a/b/c/deep.md", format!("deep {i}\n").repeat(50))
        .executable("scripts/run.sh", format!("#!/bin/sh\necho {i}\n"))
        .payload(20_000, i as u64)
}

fn manifest(server: &TestServer, members: std::ops::Range<usize>) -> String {
    let mut text = format!(
        "[install]\nscope = \"repo\"\nagents = [\"agents\"]\n\n\
         [[source]]\nname = \"stress\"\nurl = \"{}\"\n\n[skills]\n",
        server.base()
    );
    for i in members {
        text.push_str(&format!("stress-{i:02} = {{ source = \"stress\" }}\n"));
    }
    text
}

/// A real process of the binary under test, sharing the sandbox's cache.
fn skillpm(sandbox: &Sandbox, cache: &Path, dir: &Path, args: &[&str]) -> Command {
    let assert_cmd = sandbox.cmd_in(dir);
    let mut cmd = Command::new(assert_cmd.get_program());
    cmd.current_dir(dir);
    cmd.env_clear();
    for (k, v) in assert_cmd.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("SKILLPM_CACHE_DIR", cache);
    // Sixteen processes share two cores with the server: the sandbox's short
    // test timeouts would turn a slow loopback answer into a failure that
    // says nothing about the store.
    cmd.env("SKILLPM_HTTP_TIMEOUT", "60s");
    cmd.env("SKILLPM_HTTP_CONNECT_TIMEOUT", "30s");
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

/// Runs `args` over and over until `stop`, returning every failure's output.
fn loop_command(
    sandbox: Arc<Sandbox>,
    cache: PathBuf,
    args: Vec<String>,
    stop: Arc<AtomicBool>,
) -> thread::JoinHandle<(usize, Vec<String>)> {
    thread::spawn(move || {
        let mut runs = 0;
        let mut failures = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = skillpm(&sandbox, &cache, &sandbox.project, &argv)
                .output()
                .unwrap();
            runs += 1;
            let stdout = String::from_utf8_lossy(&out.stdout);
            let problems = serde_json::from_str::<serde_json::Value>(&stdout)
                .ok()
                .and_then(|v| v.get("problems").cloned())
                .and_then(|p| p.as_array().map(Vec::len))
                .unwrap_or(0);
            if !out.status.success() || problems > 0 {
                failures.push(format!(
                    "{args:?}: {:?}\n{stdout}\n{}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            thread::sleep(Duration::from_millis(fastrand::u64(0..30)));
        }
        (runs, failures)
    })
}

fn debris(cache: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (dir, bad) in [("store", ".stage-"), ("tmp", ""), ("downloads", ".")] {
        let Ok(entries) = std::fs::read_dir(cache.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(bad) || name.ends_with(".lock") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out
}

/// The committed state of four projects, locked once with their own cache.
fn locked_templates(sandbox: &Sandbox, server: &TestServer) -> Vec<PathBuf> {
    let mut setup = Sandbox::new();
    setup.env(
        "SKILLPM_CACHE_DIR",
        setup.path("setup-cache").to_str().unwrap(),
    );
    LOCKS
        .iter()
        .enumerate()
        .map(|(n, members)| {
            let dir = sandbox.path(&format!("template-{n}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("skills.toml"), manifest(server, members.clone())).unwrap();
            let out = skillpm(&setup, &setup.cache, &dir, &["install", "--yes", "--quiet"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "locking: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            dir
        })
        .collect()
}

/// `cache gc` (keeping `keep`) and `cache verify` looping on `cache` until
/// `stop`.
fn gc_and_verify_loops(
    sandbox: &Arc<Sandbox>,
    cache: &Path,
    keep: &Path,
    stop: &Arc<AtomicBool>,
) -> [thread::JoinHandle<(usize, Vec<String>)>; 2] {
    let gc = loop_command(
        sandbox.clone(),
        cache.to_owned(),
        vec![
            "cache".into(),
            "gc".into(),
            "--keep-lock".into(),
            keep.display().to_string(),
            "--json".into(),
        ],
        stop.clone(),
    );
    let verify = loop_command(
        sandbox.clone(),
        cache.to_owned(),
        vec!["cache".into(), "verify".into(), "--json".into()],
        stop.clone(),
    );
    [gc, verify]
}

/// `PER_ROUND` projects, each a copy of a template, running
/// `install --locked` at once on `cache`.
fn spawn_locked_installs(
    sandbox: &Sandbox,
    cache: &Path,
    round: usize,
    templates: &[PathBuf],
) -> Vec<(PathBuf, Child)> {
    (0..PER_ROUND)
        .map(|i| {
            let project = sandbox.path(&format!("r{round}-p{i}"));
            std::fs::create_dir_all(&project).unwrap();
            for f in ["skills.toml", "skills.lock"] {
                std::fs::copy(templates[i % LOCKS.len()].join(f), project.join(f)).unwrap();
            }
            let child = skillpm(
                sandbox,
                cache,
                &project,
                &["install", "--locked", "--quiet"],
            )
            .spawn()
            .unwrap();
            (project, child)
        })
        .collect()
}

/// SIGKILLs a few at random moments: before, during or after their work.
/// Returns which were killed.
fn kill_some(children: &mut [(PathBuf, Child)]) -> [bool; PER_ROUND] {
    let mut killed = [false; PER_ROUND];
    for _ in 0..KILLS_PER_ROUND {
        thread::sleep(Duration::from_millis(fastrand::u64(0..150)));
        let victim = fastrand::usize(..PER_ROUND);
        let child = &mut children[victim].1;
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            killed[victim] = true;
        }
    }
    killed
}

/// The cache verifies with no problem and at least one entry, no process
/// failed, and no staging, temporary or lock file is left.
fn assert_round_left_a_sound_cache(sandbox: &Sandbox, cache: &Path, failures: &[String]) {
    let out = succeed(&mut skillpm(
        sandbox,
        cache,
        &sandbox.project,
        &["cache", "verify", "--json"],
    ));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert!(report["entries_checked"].as_u64().unwrap() >= 1, "{report}");
    assert!(
        failures.is_empty(),
        "{} failed processes:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
    assert_eq!(debris(cache), Vec::<String>::new());
}

/// What a round leaves: the projects whose install was not killed (with
/// their cache), and how many were killed.
#[derive(Default)]
struct Outcome {
    survivors: Vec<(PathBuf, PathBuf)>,
    killed: usize,
}

/// One round on a fresh cache (the cold path is the contended one):
/// concurrent installs, some killed, beside looping `gc` and `verify`.
fn run_round(sandbox: &Arc<Sandbox>, templates: &[PathBuf], round: usize, outcome: &mut Outcome) {
    let cache = sandbox.path(&format!("cache-{round}"));
    let stop = Arc::new(AtomicBool::new(false));
    let keep = templates[0].join("skills.lock");
    let loops = gc_and_verify_loops(sandbox, &cache, &keep, &stop);
    let mut children = spawn_locked_installs(sandbox, &cache, round, templates);
    let killed = kill_some(&mut children);
    let mut failures = Vec::new();
    for (i, (project, child)) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        if killed[i] {
            outcome.killed += 1;
            continue;
        }
        if !out.status.success() {
            failures.push(format!(
                "round {round}, {}: {:?}\n{}",
                project.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        outcome.survivors.push((project, cache.clone()));
    }
    stop.store(true, Ordering::Relaxed);
    let [(gc_runs, gc_failures), (verify_runs, verify_failures)] = loops.map(|l| l.join().unwrap());
    assert!(gc_runs > 0 && verify_runs > 0);
    failures.extend(gc_failures);
    failures.extend(verify_failures);
    assert_round_left_a_sound_cache(sandbox, &cache, &failures);
}

#[test]
#[cfg(unix)]
fn concurrent_installs_gc_verify_and_kills_share_one_cache() {
    let sandbox = Sandbox::new();
    let skills: Vec<SkillFiles> = (0..SKILLS).map(skill).collect();
    let site = sandbox.path("site");
    Registry::new(&site).write_v2(&skills);
    let server = TestServer::serve(&site);
    let templates = locked_templates(&sandbox, &server);

    let sandbox = Arc::new(sandbox);
    let mut outcome = Outcome::default();
    for round in 0..ROUNDS {
        run_round(&sandbox, &templates, round, &mut outcome);
    }
    assert!(outcome.killed > 0, "no install was killed mid-run");

    for (project, cache) in &outcome.survivors {
        let out = skillpm(&sandbox, cache, project, &["verify"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} does not verify: {}",
            project.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
