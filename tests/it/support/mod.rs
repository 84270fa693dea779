//! Shared test harness: a loopback HTTP server serving a folder with
//! injectable faults ([`server`]), registry builders ([`registry`]), minisign
//! keys made at test time ([`keys`]) and a sandboxed `skillpm` command
//! ([`cli`]). Include it from a test file with `mod support;` (or, from an
//! example, `#[path = "../tests/support/mod.rs"] mod support;`).

// Each test binary uses a different subset of the helpers.
#![allow(dead_code)]

pub mod cli;
pub mod keys;
pub mod oci;
pub mod registry;
pub mod server;
pub mod sigstore;

use std::path::{Path, PathBuf};

/// Every file under `dir` with its bytes, to show a refused run changed
/// nothing there.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap_or_default();
            (f, bytes)
        })
        .collect()
}

/// Every regular file under `dir`, relative, sorted (empty if `dir` is absent).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Whether `path` is a lock file a live owner holds right now (a running
/// store's or fetcher's one lock for all its temporary items, see
/// `crates/skillpm-base/src/fs/temp.rs`): that is ownership, not debris. A lock file nobody
/// holds is debris like any other leftover.
pub fn held_lock(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lock")
        && std::fs::File::open(path)
            .is_ok_and(|f| matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)))
}

/// [`files_under`] without the lock files live owners hold ([`held_lock`]):
/// what a finished or failed operation left behind.
pub fn leftovers_under(dir: &Path) -> Vec<PathBuf> {
    files_under(dir)
        .into_iter()
        .filter(|f| !held_lock(&dir.join(f)))
        .collect()
}

/// The entry of a JSON report's `skills` array whose `name` is `name`.
pub fn skill_row<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no skill {name} in {report:#}"))
}

/// Runs `cmd` and asserts that it succeeded, showing its output when not.
pub fn succeed(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?} failed ({}):\n{}{}",
        cmd,
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Writes `text` at `path`, making its folders.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Whether `name` is placed in the project's shared agent folder.
pub fn linked(project: &Path, name: &str) -> bool {
    std::fs::symlink_metadata(project.join(".agents/skills").join(name)).is_ok()
}

/// A fresh clone: no agent folders (links are never committed).
pub fn unlink(project: &Path) {
    for root in [".agents", ".claude"] {
        let _ = std::fs::remove_dir_all(project.join(root));
    }
}

/// The smallest valid SKILL.md: `name`, `description` and a heading.
pub fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n")
}
