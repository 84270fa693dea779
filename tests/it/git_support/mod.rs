//! Real repositories and real servers for the git tests.
//!
//! - [`Repo`]: a work tree built with the `git` CLI plus a bare `file://`
//!   remote it pushes to (isolated from the machine's git configuration).
//! - [`serve`]: an axum server on 127.0.0.1 in its own thread.
//! - [`http_backend`]: `git http-backend` behind axum as CGI: real smart HTTP.

#![allow(dead_code)]

pub mod github;
pub mod http_backend;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// Runs `git` in `dir` with a clean configuration; panics (with git's
/// stderr) on failure; returns trimmed stdout.
/// Git options for tests: a cache under `cache`, online, no GitHub fast
/// path, default limits, https only.
pub fn options(cache: &Path) -> skillpm::git::GitOptions {
    skillpm::git::GitOptions {
        cache_dir: cache.join("git"),
        offline: false,
        github: skillpm::git::GitHubOptions {
            fast_path: false,
            ..skillpm::git::GitHubOptions::default()
        },
        limits: skillpm::git::CheckoutLimits::default(),
        allow_http: false,
    }
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.invalid",
        ])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(["-c", "tag.gpgsign=false", "-c", "core.autocrlf=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// A work tree and the bare repository it publishes to.
pub struct Repo {
    _dir: TempDir,
    pub work: PathBuf,
    pub bare: PathBuf,
}

impl Repo {
    /// An empty repository; `bare` is created under the name `name.git`.
    pub fn new(name: &str) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let bare = dir.path().join(format!("{name}.git"));
        std::fs::create_dir_all(&work).unwrap();
        git(&work, &["init", "-q"]);
        git(
            dir.path(),
            &["init", "-q", "--bare", bare.to_str().unwrap()],
        );
        git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
        Repo {
            _dir: dir,
            work,
            bare,
        }
    }

    /// The bare repository as a `file://` URL.
    pub fn url(&self) -> String {
        url::Url::from_file_path(self.bare.canonicalize().unwrap())
            .unwrap()
            .to_string()
    }

    /// Writes `content` at `rel` in the work tree.
    pub fn write(&self, rel: &str, content: &str) -> &Repo {
        let path = self.work.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        self
    }

    /// Sets the executable bits of `rel` in the work tree (git records 100755).
    pub fn executable(&self, rel: &str) -> &Repo {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = self.work.join(rel);
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        #[cfg(not(unix))]
        self.git(&["update-index", "--add", "--chmod=+x", rel]);
        self
    }

    /// Writes a skill folder `rel` whose SKILL.md names `name`.
    pub fn skill(&self, rel: &str, name: &str, description: &str) -> &Repo {
        self.write(
            &format!("{rel}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        )
    }

    pub fn git(&self, args: &[&str]) -> String {
        git(&self.work, args)
    }

    /// Commits everything and returns the new commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }

    /// Pushes every branch and tag to the bare repository, forcing moves.
    pub fn push(&self) {
        self.git(&["push", "-q", "--force", "origin", "--all"]);
        self.git(&["push", "-q", "--force", "origin", "--tags"]);
    }

    /// `git archive` of `commit` as GitHub's codeload serves it: tar.gz with
    /// one `<repo>-<commit>/` wrapper and the commit id in the pax header.
    pub fn archive(&self, repo: &str, commit: &str) -> Vec<u8> {
        let out = self.work.join("../archive.tar.gz");
        self.git(&[
            "archive",
            "--format=tar.gz",
            &format!("--prefix={repo}-{commit}/"),
            "-o",
            out.to_str().unwrap(),
            commit,
        ]);
        std::fs::read(out).unwrap()
    }
}

/// A server on 127.0.0.1 running `router` in its own thread until dropped.
pub struct Server {
    pub base: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub fn serve(router: axum::Router) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
    });
    Server {
        base,
        shutdown: Some(tx),
        thread: Some(thread),
    }
}
