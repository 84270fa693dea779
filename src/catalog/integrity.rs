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

use crate::audit::Finding;
use crate::digest::{Digest, HashedTree};
use crate::placement::link::{Record, placements, record_at};
use crate::project::lock::{LockedSkill, Lockfile};
use crate::project::state::{Placements, ProjectState};

use super::CatalogError;

/// Lock files that may vouch for skillpm links.
#[derive(Debug, Clone, Default)]
pub struct Approvals {
    project_lock: Option<(PathBuf, Lockfile)>,
    /// What the state records as placed, by path.
    placements: Placements,
    /// Other projects' locks, with the links their installs placed.
    others: Vec<(PathBuf, Lockfile, Vec<PathBuf>)>,
    /// What the audit gate judges a placed tree by, here.
    gate: GateRules,
}

/// The audit gate's rules for this project (docs/audit.md#the-gate): its
/// `[audit] fail-on` under the install policy's floor, the severities the
/// policy never accepts, and the cache whose remembered verdicts may be
/// read. A lock entry that vouches for a link vouches only for a tree whose
/// findings it accepts under these, as `install` would link it.
#[derive(Debug, Clone)]
pub struct GateRules {
    pub fail_on: crate::audit::Severity,
    pub policy: crate::policy::Effective,
    pub cache_root: Option<PathBuf>,
    /// The most bytes of a placed tree read to judge it when no verdict is
    /// remembered: the project's `[limits] max-skill-size` (a tree over it
    /// could not have been stored here, so nothing judged it).
    pub max_bytes: u64,
}

impl Default for GateRules {
    fn default() -> Self {
        GateRules::of(None, crate::policy::Effective::default(), None)
    }
}

impl GateRules {
    /// The rules of the project whose skills.toml is `manifest` (defaults
    /// without one), under the install policy `policy`, reading remembered
    /// verdicts from the cache at `cache_root`.
    pub fn of(
        manifest: Option<&crate::project::Manifest>,
        policy: crate::policy::Effective,
        cache_root: Option<PathBuf>,
    ) -> GateRules {
        GateRules {
            fail_on: manifest.map(|m| m.audit_fail_on()).unwrap_or_default(),
            policy,
            cache_root,
            max_bytes: GateRules::max_bytes_of(manifest),
        }
    }

    /// The `max-skill-size` of `manifest`'s `[limits]`, or the default one
    /// (also for a table that does not parse: the commands that store
    /// skills refuse it, and the default is the stricter reading).
    pub fn max_bytes_of(manifest: Option<&crate::project::Manifest>) -> u64 {
        manifest
            .and_then(|m| m.limits())
            .and_then(|t| t.clone().try_into::<crate::unpack::Limits>().ok())
            .unwrap_or_default()
            .max_skill_size
    }
}

impl GateRules {
    /// The findings of `found` that stop a tree whose lock entry accepts
    /// `accepted`: at or above the `fail-on` in force and not accepted, and
    /// any of a severity the policy never accepts.
    pub fn stopping<'f>(&self, found: &'f [Finding], accepted: &[String]) -> Vec<&'f Finding> {
        let fail_on = self.fail_on();
        let mut stop = crate::audit::gate::blocking(found, fail_on, accepted);
        for f in found {
            if self.policy.never_accepts(f.severity).is_some() && !stop.contains(&f) {
                stop.push(f);
            }
        }
        stop
    }

    /// The `fail-on` in force: the project's, or the policy's floor.
    pub fn fail_on(&self) -> crate::audit::Severity {
        self.policy.fail_on(self.fail_on)
    }
}

impl Approvals {
    /// The project's lock (an unreadable one is an error: nothing it pins
    /// could be checked) and, when `cache_root` is known, the locks of the
    /// other projects that placed links on this machine.
    pub fn load(project: &Path, cache_root: Option<&Path>) -> Result<Approvals, CatalogError> {
        let lock_path = Lockfile::path_in(project);
        let manifest =
            crate::project::Manifest::load(&project.join(crate::project::MANIFEST_FILE)).ok();
        let gate = GateRules::of(
            manifest.as_ref(),
            crate::policy::load(&crate::agents::roots::Env::from_process(), project)?,
            cache_root.map(Path::to_path_buf),
        );
        let project_lock = Lockfile::load(&lock_path)?.map(|l| {
            (
                lock_path.clone(),
                without_broken_chains(project, manifest.as_ref(), cache_root, l),
            )
        });
        let mut others = Vec::new();
        let placements = placements(cache_root);
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
            placements,
            others,
            gate,
        })
    }

    /// What the audit gate judges placed trees by, for this project.
    pub fn gate(&self) -> &GateRules {
        &self.gate
    }

    /// What the state records at `path`.
    pub fn record(&self, path: &Path) -> Record {
        record_at(&self.placements, path)
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
        self.others
            .iter()
            .filter(|(_, _, links)| links.iter().any(|l| l == link))
            .find_map(|(path, lock, _)| lock.get(name).map(|e| (e, path.as_path())))
    }
}

/// A lock entry vouches only while its provenance chain holds: entries the
/// cache proves forged (a look-alike's artifact, a tree the signed artifact
/// does not unpack to, a forged signer...) are dropped, so their links are
/// withheld as unapproved. Proven offline; an entry that cannot be proven
/// without the network keeps vouching (install proved it when it linked).
fn without_broken_chains(
    project: &Path,
    manifest: Option<&crate::project::Manifest>,
    cache_root: Option<&Path>,
    lock: Lockfile,
) -> Lockfile {
    let (Some(cache), Some(manifest)) = (cache_root, manifest) else {
        return lock;
    };
    let entries: Vec<&LockedSkill> = lock.skills().iter().collect();
    let broken: Vec<String> = crate::provenance::prove_offline(project, manifest, cache, &entries)
        .into_iter()
        .zip(&entries)
        .filter(|(proof, _)| matches!(proof, Err(crate::provenance::ProveError::Broken(_))))
        .map(|(_, e)| e.name.clone())
        .collect();
    let mut kept = lock;
    for name in broken {
        kept.remove(&name);
    }
    kept
}

/// Tree digests of placed skills, keyed by folder, each with a fingerprint
/// of the file metadata it was computed from.
#[derive(Debug, Default)]
pub struct HashCache {
    entries: HashMap<PathBuf, (Digest, Result<HashedTree, String>)>,
    hashed: usize,
    /// The scanner's findings per tree digest, made from bytes that hashed
    /// to it (or read from an authentic verdict record bound to it).
    findings: HashMap<Digest, Vec<Finding>>,
    /// Trees whose findings were made here, from placed bytes, and not yet
    /// remembered in the cache; `remembered` says a record was written and
    /// the run's batch is flushed when this cache is dropped.
    fresh: std::collections::HashSet<Digest>,
    remembered: bool,
}

impl Drop for HashCache {
    fn drop(&mut self) {
        self.flush();
    }
}

impl HashCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The tree digest of the skill placed at `path` as an agent reads it
    /// (through a symlink; a copy without its marker). Re-hashes only when
    /// the fingerprint changed. The error is a sentence for a report.
    pub fn tree(&mut self, path: &Path) -> Result<HashedTree, String> {
        let fingerprint = fingerprint(path);
        if let Some(fp) = fingerprint
            && let Some((cached_fp, result)) = self.entries.get(path)
            && *cached_fp == fp
        {
            return result.clone();
        }
        self.hashed += 1;
        let result = crate::placement::link::hash_placed(path).map_err(|e| e.to_string());
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

    /// The scanner's findings for the tree `tree` placed at `path`, as the
    /// gate has them: this user's remembered verdict for that digest and
    /// rule set (MAC'd, `store::verdicts`), else read from the placed
    /// files, hashed to `tree` from the very bytes audited
    /// ([`read_verified`]), so no file changed between the check and the
    /// audit can lend its verdict to other bytes. Remembered per digest for
    /// the life of this cache (a long-running `skillpm mcp`).
    pub fn findings(
        &mut self,
        path: &Path,
        tree: &Digest,
        gate: &GateRules,
    ) -> Result<Vec<Finding>, Unread> {
        if let Some(found) = self.findings.get(tree) {
            return Ok(found.clone());
        }
        let remembered =
            (gate.cache_root.as_deref()).and_then(|c| crate::store::remembered_verdict_in(c, tree));
        let found = match remembered {
            Some(found) => found,
            None => {
                let files = read_verified(path, tree, gate.max_bytes)?;
                self.fresh.insert(*tree);
                crate::audit::audit_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
            }
        };
        self.findings.insert(*tree, found.clone());
        Ok(found)
    }

    /// Remembers in the cache of `gate` the findings this cache made for
    /// `tree` from placed bytes, so the first `list`, `show` or `mcp` after
    /// the rules changed (an upgrade) reads each skill once, not on every
    /// run until `install` (docs/audit.md#the-gate). The bytes were hashed
    /// to `tree` before they were audited ([`read_verified`]), which is
    /// what a verdict record promises. Only for a tree the gate lets
    /// through: a refusal writes nothing.
    pub fn remember(&mut self, tree: &Digest, gate: &GateRules) {
        if let Some(root) = gate.cache_root.as_deref()
            && self.fresh.remove(tree)
            && let Some(found) = self.findings.get(tree)
        {
            crate::store::remember_verdict_in(root, tree, found);
            self.remembered = true;
        }
    }

    /// Writes the verdicts [`HashCache::remember`] kept, as one batch file:
    /// after each catalog a long-running `skillpm mcp` builds, and when the
    /// cache is dropped.
    pub fn flush(&mut self) {
        if std::mem::take(&mut self.remembered) {
            crate::store::flush_batches();
        }
    }

    /// How many times a tree was actually hashed (for tests and benchmarks).
    pub fn hashes_computed(&self) -> usize {
        self.hashed
    }
}

/// Why [`read_verified`] handed nothing out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// More than `limit` bytes: content `install` refuses by its size
    /// (docs/audit.md#the-gate), found out from the files' sizes before
    /// their bytes are read.
    TooLarge { limit: u64 },
    /// Missing, unreadable, a link or special file, or not the approved
    /// bytes: a sentence for a report.
    Changed(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::TooLarge { limit } => write!(
                f,
                "it holds more than {}, the `max-skill-size` under [limits]",
                crate::unpack::Size(*limit)
            ),
            Unread::Changed(sentence) => f.write_str(sentence),
        }
    }
}

impl From<Unread> for std::borrow::Cow<'static, str> {
    fn from(unread: Unread) -> Self {
        unread.to_string().into()
    }
}

/// The files of a placed skill read into memory, hashed from those very
/// bytes and checked against `expected` (the approved tree digest) before
/// any of them is handed out: what an MCP `resources/read` serves can never
/// be bytes that changed after the check. Symlinks and special files are
/// refused; a copy's marker file is left out, as [`HashCache::tree`] does.
pub fn read_verified(
    path: &Path,
    expected: &Digest,
    max_bytes: u64,
) -> Result<std::collections::BTreeMap<String, Vec<u8>>, Unread> {
    let changed = |sentence: String| Unread::Changed(sentence);
    let real = std::fs::canonicalize(path)
        .map_err(|e| changed(format!("cannot open {}: {e}", path.display())))?;
    let mut files = std::collections::BTreeMap::new();
    let mut total = 0u64;
    let mut stack = vec![real.clone()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| changed(format!("cannot read {}: {e}", dir.display())))?;
        for entry in entries {
            let entry =
                entry.map_err(|e| changed(format!("cannot read {}: {e}", dir.display())))?;
            let p = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| changed(format!("cannot read {}: {e}", p.display())))?;
            if kind.is_dir() {
                stack.push(p);
                continue;
            }
            if !kind.is_file() {
                return Err(changed(format!(
                    "{} is not a regular file; skills never contain links or special files",
                    p.display()
                )));
            }
            let rel = p.strip_prefix(&real).unwrap_or(&p);
            let Some(rel) = rel
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<Vec<_>>>()
            else {
                return Err(changed(format!(
                    "{} has a name that is not UTF-8",
                    p.display()
                )));
            };
            let rel = rel.join("/");
            // Judged by its size before it is read: a file over the limit
            // is never held in memory.
            let size = entry.metadata().map_or(0, |m| m.len());
            if total.saturating_add(size) > max_bytes {
                return Err(Unread::TooLarge { limit: max_bytes });
            }
            let bytes = std::fs::read(&p)
                .map_err(|e| changed(format!("cannot read {}: {e}", p.display())))?;
            total += bytes.len() as u64;
            if total > max_bytes {
                return Err(Unread::TooLarge { limit: max_bytes });
            }
            files.insert(rel, bytes);
        }
    }
    let mut hasher = crate::digest::TreeHasher::new();
    for (rel, bytes) in &files {
        hasher.add(rel.clone(), Digest::of_bytes(bytes));
    }
    let found = hasher.finish();
    if found != *expected {
        return Err(changed(format!(
            "{} no longer matches its approved tree digest {expected} (its files hash to {found}); nothing from it is served. Run `skillpm verify` and reinstall it",
            path.display()
        )));
    }
    Ok(files)
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
    fn read_verified_hands_out_only_bytes_that_match_the_digest() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("SKILL.md"), "# Hello\n").unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        let digest = crate::digest::tree_digest(&dir).unwrap();
        let files = read_verified(&dir, &digest, 1024).unwrap();
        assert_eq!(files["scripts/run.sh"], b"#!/bin/sh\n");
        assert_eq!(files.len(), 2);
        // Same size, other bytes: refused, and nothing is returned.
        std::fs::write(dir.join("scripts/run.sh"), "#!/bin/zz\n").unwrap();
        let err = read_verified(&dir, &digest, 1024).unwrap_err().to_string();
        assert!(err.contains("no longer matches"), "{err}");
        assert!(!err.contains("bin/zz"), "{err}");
        // Over the byte budget: refused before hashing.
        assert_eq!(
            read_verified(&dir, &digest, 4).unwrap_err(),
            Unread::TooLarge { limit: 4 }
        );
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
