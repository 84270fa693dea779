//! The git cache: one bare repository per remote URL under `<cache>/git/`,
//! each guarded by a file lock so concurrent skillpm runs never write the
//! same repository at once.
//!
//! ```text
//! <cache>/git/repos/<key>.git/   bare repository (objects, refs mirrored from the remote)
//! <cache>/git/repos/<key>.lock   held exclusively while a run uses that repository
//! ```
//! `<key>` is the first 32 hex digits of sha256(URL). A repository is created
//! under a temporary name and renamed into place, so a killed run never
//! leaves a half-initialised one behind.

use std::path::{Path, PathBuf};

use super::GitError;
use crate::digest::Digest;
use crate::fs::{HeldLock, unique_suffix};

/// A cache repository, locked for as long as this value lives.
pub(crate) struct CachedRepo {
    pub(crate) repo: gix::Repository,
    pub(crate) path: PathBuf,
    _lock: HeldLock,
}

/// The cache folder for `url` inside `git_dir` (`<cache>/git`).
pub(crate) fn repo_path(git_dir: &Path, url: &str) -> PathBuf {
    let key = Digest::of_bytes(url.as_bytes()).hex();
    git_dir.join("repos").join(format!("{}.git", &key[..32]))
}

/// Opens (creating when `create`) the cache repository for `url`, waiting
/// for other runs that hold it. `Ok(None)`: it does not exist and `create`
/// is false (the `--offline` case).
pub(crate) fn open_locked(
    git_dir: &Path,
    url: &str,
    create: bool,
) -> Result<Option<CachedRepo>, GitError> {
    let path = repo_path(git_dir, url);
    let repos = crate::fs::parent_dir(&path);
    if !create && !path.exists() {
        return Ok(None);
    }
    std::fs::create_dir_all(&repos).map_err(GitError::io("create the folder", &repos))?;
    let lock_path = path.with_extension("lock");
    let lock = HeldLock::acquire(&lock_path).map_err(GitError::io("lock", &lock_path))?;

    if !path.exists() {
        if !create {
            return Ok(None);
        }
        init_bare(&path)?;
    }
    remove_dead_git_locks(&path);
    let repo = match open(&path) {
        Ok(repo) => repo,
        Err(first) if create => {
            // A repository this cache cannot open is useless; the cache is
            // ours to rebuild (we hold its lock).
            std::fs::remove_dir_all(&path)
                .map_err(GitError::io("remove the broken cache", &path))?;
            init_bare(&path)?;
            open(&path).map_err(|_| first)?
        }
        Err(e) => return Err(e),
    };
    Ok(Some(CachedRepo {
        repo,
        path,
        _lock: lock,
    }))
}

fn init_bare(path: &Path) -> Result<(), GitError> {
    remove_dead_staging(path);
    let staging = path.with_extension(format!("tmp-{}", unique_suffix()));
    let result = gix::init_bare(&staging)
        .map_err(|e| GitError::Cache {
            path: staging.clone(),
            message: format!("cannot create a repository: {e}"),
        })
        .and_then(|_| {
            std::fs::rename(&staging, path).map_err(GitError::io("move into place", path))
        });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Removes what a killed run left while making `path`: its staging folders
/// are only ever made under `path`'s lock, which the caller holds now.
fn remove_dead_staging(path: &Path) {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return;
    };
    let prefix = format!("{}.tmp-", stem.to_string_lossy());
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Removes the lock files git leaves while it rewrites a ref, `packed-refs`
/// or the config (`<name>.lock`): one that exists now was left by a run
/// killed mid-write, since only a run holding this repository's lock (the
/// caller, now) ever writes it. Left in place, it failed every later fetch
/// that had to move the same ref.
fn remove_dead_git_locks(repo: &Path) {
    for top in [
        "packed-refs.lock",
        "config.lock",
        "HEAD.lock",
        "shallow.lock",
        "index.lock",
    ] {
        let _ = std::fs::remove_file(repo.join(top));
    }
    let mut folders = vec![repo.join("refs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() && entry.file_name().to_string_lossy().ends_with(".lock") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Opens the cache repository with the user's git configuration (system and
/// global: credential helpers, `url.<base>.insteadOf`, proxies, SSH command),
/// which is how private repositories authenticate. skillpm stores no
/// credentials of its own.
fn open(path: &Path) -> Result<gix::Repository, GitError> {
    gix::open(path).map_err(|e| GitError::Cache {
        path: path.to_owned(),
        message: format!("cannot open the repository: {e}"),
    })
}
