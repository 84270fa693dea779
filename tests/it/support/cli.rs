//! The one sandbox every integration test runs the real `skillpm` binary in:
//! its own HOME, cache, config, agent and admin folders in a temp dir, no
//! proxy, no colour, and network timeouts short enough that fault tests take
//! milliseconds, not minutes. (`skill_world::World` and the foundation tests
//! build on it.)

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub struct Sandbox {
    _temp: tempfile::TempDir,
    /// The temp dir itself, canonical so paths the binary prints match.
    pub root: PathBuf,
    pub home: PathBuf,
    pub cache: PathBuf,
    /// A project folder (empty until `skillpm init`).
    pub project: PathBuf,
    envs: Vec<(String, String)>,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Sandbox {
    pub fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(temp.path()).unwrap();
        let home = root.join("home");
        let cache = root.join("cache");
        let project = root.join("project");
        // `home/.claude`: Claude Code is installed for this user, so the
        // default placement (`.agents/skills` plus detected agents) links
        // into `.claude/skills` too, as the tests written before detection expect.
        for dir in [&home, &home.join(".claude"), &project] {
            std::fs::create_dir_all(dir).unwrap();
        }
        Sandbox {
            _temp: temp,
            root,
            home,
            cache,
            project,
            envs: Vec::new(),
        }
    }

    /// A temp path inside the sandbox (not created).
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Adds an environment variable to every command made afterwards.
    pub fn env(&mut self, key: &str, value: &str) -> &mut Self {
        self.envs.push((key.to_owned(), value.to_owned()));
        self
    }

    /// `skillpm` run in the project folder.
    pub fn cmd(&self) -> Command {
        self.cmd_in(&self.project)
    }

    pub fn cmd_in(&self, dir: &Path) -> Command {
        Command::from(self.process_in(dir))
    }

    /// The same sandboxed `skillpm`, as a plain process (for wiring its
    /// stdout to a pipe or another process).
    pub fn process_in(&self, dir: &Path) -> std::process::Command {
        let mut cmd = process(&self.home, &self.cache, &self.root.join("admin"), dir);
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn manifest(&self) -> String {
        std::fs::read_to_string(self.project.join("skills.toml")).unwrap()
    }

    /// What skillpm's state (in the cache, never in the folder) records as
    /// placed at `path`: `"<tree> <kind>"`, or empty when nothing is.
    pub fn placement(&self, path: &Path) -> String {
        let Ok(dir) = std::fs::read_dir(self.cache.join("state/links")) else {
            return String::new();
        };
        for file in dir.flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap_or_default();
            let record = placement_record_json(&text);
            for link in record["links"].as_array().into_iter().flatten() {
                let at = Path::new(link["root"].as_str().unwrap_or_default())
                    .join(link["name"].as_str().unwrap_or_default());
                if at == path {
                    return format!(
                        "{} {}",
                        link["tree"].as_str().unwrap_or_default(),
                        link["kind"].as_str().unwrap_or_default()
                    );
                }
            }
        }
        String::new()
    }

    /// The names of the store's entries (markers and staging folders aside).
    pub fn store_entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.cache.join("store"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with("sha256-") && !n.ends_with(".complete"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// `skillpm init` in the project; panics if it fails.
    pub fn init(&self) {
        self.cmd().arg("init").assert().success();
    }
}

/// The `skillpm` binary run in `dir` with nothing of the test runner's
/// environment but `PATH`: its home, config and agent folders under `home`,
/// its cache `cache`, the admin policy under `admin`, no colour, and network
/// timeouts short enough that fault tests take milliseconds. [`Sandbox`]
/// runs this; a test that keeps its own folders calls it directly.
pub fn process(home: &Path, cache: &Path, admin: &Path, dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("skillpm"));
    cmd.current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("SKILLPM_CACHE_DIR", cache)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("CODEX_HOME", home.join(".codex"))
        .env("SKILLPM_ADMIN_PREFIX", admin)
        .env("NO_COLOR", "1")
        .env("SKILLPM_HTTP_TIMEOUT", "400ms")
        .env("SKILLPM_HTTP_CONNECT_TIMEOUT", "2s")
        .env("SKILLPM_HTTP_BACKOFF", "10ms")
        .env("SKILLPM_HTTP_RETRIES", "2");
    cmd
}

/// The JSON of a placement record file (`<json>\nmac <hex>\n`,
/// docs/threat-model.md), without its MAC line; `Null` when unreadable.
pub fn placement_record_json(text: &str) -> serde_json::Value {
    let json = text
        .trim_end()
        .rsplit_once("\nmac ")
        .map_or(text, |(json, _)| json);
    serde_json::from_str(json).unwrap_or_default()
}

/// A placement record file holding `record`, with a `mac` line when given.
pub fn placement_record_text(record: &serde_json::Value, mac: Option<&str>) -> String {
    let json = serde_json::to_string(record).unwrap();
    match mac {
        Some(mac) => format!("{json}\nmac {mac}\n"),
        None => format!("{json}\n"),
    }
}

/// Runs a command and returns (exit code, stdout, stderr).
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run`]'s result, asserting the command succeeded (showing its output when not).
pub fn ok(out: (i32, String, String)) -> (i32, String, String) {
    assert_eq!(out.0, 0, "stdout:\n{}\nstderr:\n{}", out.1, out.2);
    out
}

/// `text` (a command's stdout) as JSON; panics showing it when it is not.
pub fn json(text: impl AsRef<[u8]>) -> serde_json::Value {
    let text = text.as_ref();
    serde_json::from_slice(text)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(text)))
}

/// A finished command, with fluent checks that print everything on failure.
pub struct Ran {
    pub command: String,
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// Runs `cmd`, named `command` in failure messages.
    pub fn of(command: String, cmd: &mut Command) -> Ran {
        let (code, stdout, stderr) = run(cmd);
        Ran {
            command,
            code,
            stdout,
            stderr,
        }
    }

    pub fn exits(self, code: i32) -> Self {
        assert_eq!(
            self.code, code,
            "`skillpm {}` exited {} (expected {code})\nstdout:\n{}\nstderr:\n{}",
            self.command, self.code, self.stdout, self.stderr
        );
        self
    }

    pub fn succeeds(self) -> Self {
        self.exits(0)
    }

    /// Both streams together contain `text`.
    pub fn says(self, text: &str) -> Self {
        assert!(
            self.stdout.contains(text) || self.stderr.contains(text),
            "`skillpm {}` did not say {text:?}\nstdout:\n{}\nstderr:\n{}",
            self.command,
            self.stdout,
            self.stderr
        );
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "`skillpm {}` printed no JSON ({e}):\n{}\nstderr:\n{}",
                self.command, self.stdout, self.stderr
            )
        })
    }
}

impl Sandbox {
    /// `skillpm ARGS` in this sandbox's project, for the checks of [`Ran`].
    /// `text` with the sandbox's temp dir written `[TMP]` (and a server's
    /// loopback port `[PORT]`), so snapshots are stable.
    pub fn redact(&self, text: impl AsRef<[u8]>) -> String {
        let text = String::from_utf8_lossy(text.as_ref());
        let text = text.replace(self.root.to_str().unwrap(), "[TMP]");
        redact_port(&text)
    }

    pub fn skillpm(&self, args: &[&str]) -> Ran {
        Ran::of(args.join(" "), self.cmd().args(args))
    }
}

/// `127.0.0.1:<port>` written `127.0.0.1:[PORT]`.
fn redact_port(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("127.0.0.1:") {
        let (before, after) = rest.split_at(at + "127.0.0.1:".len());
        out.push_str(before);
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(if digits > 0 { "[PORT]" } else { "" });
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}
