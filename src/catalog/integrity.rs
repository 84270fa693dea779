//! Is a placed skill still what a person approved? Two parts:
//! - [`Approvals`]: the lock entries that may vouch for a skillpm link: the
//!   project's own `skills.lock`, then the locks of other projects whose
//!   `install` placed that very link (a user-scope install is visible from
//!   every project, and approved in the project that asked for it);
//! - [`HashCache`]: tree digests of placed skills, re-computed only when a
//!   file's size, times or inode changed, so a long-running server can check
//!   every skill on every request for the price of a few `stat` calls.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::digest::Digest;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::project::state::ProjectState;

use super::CatalogError;

/// Lock files that may vouch for skillpm links.
#[derive(Debug, Clone, Default)]
pub struct Approvals {
    project_lock: Option<(PathBuf, Lockfile)>,
    /// Other projects' locks, with the links their installs placed.
    others: Vec<(PathBuf, Lockfile, Vec<PathBuf>)>,
}

impl Approvals {
    /// The project's lock (an unreadable one is an error: nothing it pins
    /// could be checked) and, when `cache_root` is known, the locks of the
    /// other projects that placed links on this machine.
    pub fn load(project: &Path, cache_root: Option<&Path>) -> Result<Approvals, CatalogError> {
        let lock_path = Lockfile::path_in(project);
        let project_lock = Lockfile::load(&lock_path)?.map(|l| (lock_path.clone(), l));
        let mut others = Vec::new();
        if let Some(cache) = cache_root {
            let state = ProjectState::new(&cache.join(crate::cache::layout::STATE));
            for (other, placed) in state.all_placed_links() {
                let other_lock = Lockfile::path_in(&other);
                if other_lock == lock_path {
                    continue;
                }
                // Another project's broken lock vouches for nothing.
                if let Ok(Some(lock)) = Lockfile::load(&other_lock) {
                    let links = placed.iter().map(|l| l.path()).collect();
                    others.push((other_lock, lock, links));
                }
            }
        }
        Ok(Approvals {
            project_lock,
            others,
        })
    }

    /// Approvals from one lock only (tests, and hosts that embed skillpm).
    pub fn from_lock(path: PathBuf, lock: Lockfile) -> Approvals {
        Approvals {
            project_lock: Some((path, lock)),
            others: Vec::new(),
        }
    }

    /// The project's own lock, if it has one.
    pub fn project_lock(&self) -> Option<&Lockfile> {
        self.project_lock.as_ref().map(|(_, l)| l)
    }

    /// The lock entry for the skillpm link at `link` named `name`, and the
    /// lock file it comes from.
    pub fn find(&self, name: &str, link: &Path) -> Option<(&LockedSkill, &Path)> {
        if let Some((path, lock)) = &self.project_lock
            && let Some(entry) = lock.get(name)
        {
            return Some((entry, path));
        }
        self.others.iter().find_map(|(path, lock, links)| {
            if links.iter().any(|l| l == link) {
                lock.get(name).map(|e| (e, path.as_path()))
            } else {
                None
            }
        })
    }
}

/// What hashing a placed skill found: its tree digest and the files with
/// the execute bit (which the lock records beside the digest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedTree {
    pub digest: Digest,
    pub executables: Vec<String>,
}

/// Tree digests of placed skills, keyed by folder, each with a fingerprint
/// of the file metadata it was computed from.
#[derive(Debug, Default)]
pub struct HashCache {
    entries: HashMap<PathBuf, (Digest, Result<PlacedTree, String>)>,
    hashed: usize,
}

impl HashCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The tree digest of the skill placed at `path` as an agent reads it
    /// (through a symlink; a copy without its marker). Re-hashes only when
    /// the fingerprint changed. The error is a sentence for a report.
    pub fn tree(&mut self, path: &Path) -> Result<PlacedTree, String> {
        let fingerprint = fingerprint(path);
        if let Some(fp) = fingerprint
            && let Some((cached_fp, result)) = self.entries.get(path)
            && *cached_fp == fp
        {
            return result.clone();
        }
        self.hashed += 1;
        let result = crate::link::hash_placed(path)
            .map(|t| PlacedTree {
                executables: t.executables(),
                digest: t.digest,
            })
            .map_err(|e| e.to_string());
        match fingerprint {
            Some(fp) => {
                self.entries.insert(path.to_owned(), (fp, result.clone()));
            }
            None => {
                self.entries.remove(path);
            }
        }
        result
    }

    /// How many times a tree was actually hashed (for tests and benchmarks).
    pub fn hashes_computed(&self) -> usize {
        self.hashed
    }
}

/// A digest of every entry's relative path, type, size, modification and
/// change times and inode under the real folder of `path`. `None` when the
/// folder cannot be walked (then nothing is cached). The change time cannot
/// be set by a user, so an edit that restores the modification time is
/// still seen.
fn fingerprint(path: &Path) -> Option<Digest> {
    let real = std::fs::canonicalize(path).ok()?;
    let mut hasher = Sha256::new();
    let mut stack = vec![real.clone()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(Result::ok)
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let meta = entry.path().symlink_metadata().ok()?;
            let rel = entry.path();
            let rel = rel.strip_prefix(&real).unwrap_or(&rel);
            hasher.update(rel.as_os_str().as_encoded_bytes());
            hasher.update([0u8]);
            hasher.update(stat_bytes(&meta));
            if meta.is_dir() {
                stack.push(entry.path());
            }
        }
    }
    let bytes: [u8; 32] = hasher.finalize().into();
    Some(Digest::of_bytes(&bytes))
}

#[cfg(unix)]
fn stat_bytes(meta: &std::fs::Metadata) -> Vec<u8> {
    use std::os::unix::fs::MetadataExt;
    [
        meta.mode() as i64,
        meta.size() as i64,
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.ino() as i64,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect()
}

#[cfg(not(unix))]
fn stat_bytes(meta: &std::fs::Metadata) -> Vec<u8> {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut out = Vec::new();
    out.push(meta.is_dir() as u8);
    out.extend(meta.len().to_le_bytes());
    out.extend(modified.to_le_bytes());
    out
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn rehashes_only_after_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("SKILL.md"), "# Hello\n").unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        let mut cache = HashCache::new();
        let first = cache.tree(&dir).unwrap().digest;
        assert_eq!(
            first.to_string(),
            "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"
        );
        assert_eq!(cache.tree(&dir).unwrap().digest, first);
        assert_eq!(cache.hashes_computed(), 1);
        // A rewrite is noticed through its metadata, and re-hashed once.
        std::fs::write(dir.join("scripts/run.sh"), "#!/bin/bash").unwrap();
        let second = cache.tree(&dir).unwrap().digest;
        assert_ne!(second, first);
        assert_eq!(cache.hashes_computed(), 2);
        std::fs::write(dir.join("scripts/new.txt"), "x").unwrap();
        assert_ne!(cache.tree(&dir).unwrap().digest, second);
        assert_eq!(cache.hashes_computed(), 3);
    }

    #[test]
    fn unreadable_trees_are_errors_and_not_cached() {
        let tmp = tempfile::tempdir().unwrap();
        let mut cache = HashCache::new();
        assert!(cache.tree(&tmp.path().join("missing")).is_err());
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("evil")).unwrap();
        let err = cache.tree(&dir).unwrap_err();
        assert!(err.contains("evil"), "{err}");
    }
}
