//! `cache verify`, `cache gc` and `cache clean`: the store's upkeep.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::projects::{LockRefs, read_lock_refs};
use super::{STAGE_PREFIX, Store, StoreError, io_error, markers};
use crate::cache::layout;
use crate::digest::{Digest, hash_tree};
use crate::fs::tree::{remove_tree, set_dir_writable, tree_size};

/// Something `verify` found wrong, and what it did about it.
#[derive(Debug, Clone, Serialize)]
pub struct Quarantined {
    /// The entry or download as it was named (`store/sha256-…`, `downloads/sha256-…`).
    pub item: String,
    pub problem: String,
    /// Where a store entry was moved; absent for downloads, which are deleted
    /// (they are fetched again when needed).
    pub moved_to: Option<PathBuf>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct VerifyOutcome {
    pub entries_checked: usize,
    pub downloads_checked: usize,
    pub problems: Vec<Quarantined>,
    /// Sound entries that had no (or a stale) completeness marker and got
    /// one, after one flush of the file system.
    pub entries_sealed: usize,
    /// Leftovers of interrupted runs removed when the cache was opened.
    pub debris_removed: usize,
}

/// In `state/`: one record per project of the entries its last install
/// found sealed ([`Store::verify_entries`]).
pub(super) const SEALED_SETS: &str = "sealed-sets";

/// The record of the entries the project `owner` (its root) found sealed.
fn sealed_set_record(state_dir: &Path, owner: &Path) -> PathBuf {
    let owner = Digest::of_bytes(owner.as_os_str().as_encoded_bytes());
    state_dir.join(SEALED_SETS).join(owner.file_name())
}

/// A project's sealed-set record being read and its stamps checked on a
/// thread of its own ([`Store::check_set_ahead`]).
pub struct SetCheckAhead {
    store_dir: PathBuf,
    owner: PathBuf,
    check: std::thread::JoinHandle<Option<markers::CheckedSet>>,
}

impl Store {
    /// Begins checking the sealed set last recorded for the project `owner`
    /// in the user's cache, on a thread of its own, before the store is
    /// opened: a no-op install reads its manifest, lock and policy and
    /// proves its entries meanwhile, then hands this to
    /// [`Store::verify_entries`] (docs/performance.md#the-no-op-install). It
    /// only reads (no key is made, no folder created); `None` without a
    /// cache folder or a thread.
    pub fn check_set_ahead(owner: &Path) -> Option<SetCheckAhead> {
        let root = crate::cache::cache_root().ok()?;
        let store_dir = root.join(layout::STORE);
        let record = sealed_set_record(&root.join(layout::STATE), owner);
        let dir = store_dir.clone();
        let check = std::thread::Builder::new()
            .spawn(move || {
                let key = crate::trust::RecordKey::existing()?;
                markers::check_set(&record, &dir, Some(&key))
            })
            .ok()?;
        Some(SetCheckAhead {
            store_dir,
            owner: owner.to_owned(),
            check,
        })
    }
}

/// What [`Store::verify_entry`] found of a store entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryCheck {
    /// Stored and whole: its marker holds, or it was hashed again.
    Present,
    /// Not in the store.
    Missing,
    /// It no longer hashed to its name and was moved here (`quarantine/`).
    Moved(PathBuf),
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct GcOutcome {
    pub dry_run: bool,
    /// The project locks whose references were kept.
    pub lock_files: Vec<PathBuf>,
    /// Registered project locks whose file no longer exists (now forgotten).
    pub forgotten: Vec<PathBuf>,
    pub kept_entries: usize,
    pub removed_entries: Vec<Digest>,
    pub removed_downloads: Vec<Digest>,
    /// Quarantined entries and stray files.
    pub removed_other: Vec<PathBuf>,
    /// Records in `state/` about trees no longer stored: verdicts, artifact
    /// → tree records, every remembered gate pass and every project's
    /// sealed set.
    pub removed_records: usize,
    pub bytes_freed: u64,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct CleanOutcome {
    pub removed: Vec<PathBuf>,
    pub bytes_freed: u64,
}

/// Folders `clean` empties. `state/` stays: it holds the rollback guard's
/// highest signed versions and the registry of projects.
const CLEANED: &[&str] = &[
    layout::STORE,
    layout::DOWNLOADS,
    layout::INDEX,
    layout::GIT,
    layout::TMP,
    layout::SNAPSHOTS,
    layout::SIGSTORE,
    super::QUARANTINE,
];

fn children(dir: &Path) -> Result<Vec<(String, PathBuf)>, StoreError> {
    let mut out = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(io_error("list", dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(io_error("list", dir))?;
        out.push((
            entry.file_name().to_string_lossy().into_owned(),
            entry.path(),
        ));
    }
    out.sort();
    Ok(out)
}

impl Store {
    /// Re-hashes every entry and download. An entry whose content no longer
    /// matches its name is moved to `quarantine/`; a bad download is deleted.
    pub fn verify(&self) -> Result<VerifyOutcome, StoreError> {
        let mut outcome = VerifyOutcome {
            debris_removed: self.debris_removed(),
            ..VerifyOutcome::default()
        };
        let store_dir = self.store_dir();
        for (name, path) in children(&store_dir)? {
            if name.starts_with(STAGE_PREFIX) {
                continue; // a live import's staging folder
            }
            if let Some(digest) = markers::marker_digest(&name) {
                if !self.entry_path(&digest).exists() {
                    // The entry went (gc, quarantine) and its marker stayed.
                    let _lock = self.lock_commits()?;
                    if !self.entry_path(&digest).exists() {
                        self.drop_marker(&digest)
                            .map_err(io_error("remove", &path))?;
                    }
                }
                continue;
            }
            outcome.entries_checked += 1;
            let digest = Digest::from_file_name(&name);
            let problem = match digest {
                None => Some("not a store entry (name is not sha256-<hex>)".to_owned()),
                Some(_) if !path.is_dir() => Some("not a folder".to_owned()),
                Some(expected) => match hash_tree(&path) {
                    Ok(tree) if tree.digest == expected => {
                        if !markers::is_sealed(&store_dir, &expected, self.key()) {
                            self.add_pending(tree, None);
                        }
                        None
                    }
                    Ok(tree) => Some(format!("content hashes to {}", tree.digest)),
                    Err(e) => Some(format!("cannot be hashed: {e}")),
                },
            };
            if let Some(problem) = problem {
                let moved_to = self.quarantine(&name, &path)?;
                outcome.problems.push(Quarantined {
                    item: format!("{}/{name}", layout::STORE),
                    problem,
                    moved_to,
                });
            }
        }
        for (name, path) in children(&self.downloads_dir())? {
            outcome.downloads_checked += 1;
            let problem = match Digest::from_file_name(&name) {
                None => Some("not a download (name is not sha256-<hex>)".to_owned()),
                Some(expected) => match Digest::of_file(&path) {
                    Ok(actual) if actual == expected => None,
                    Ok(actual) => Some(format!("bytes hash to {actual}; deleted")),
                    Err(e) => Some(format!("cannot be hashed: {e}; deleted")),
                },
            };
            if let Some(problem) = problem {
                remove_tree(&path).map_err(io_error("remove", &path))?;
                outcome.problems.push(Quarantined {
                    item: format!("{}/{name}", layout::DOWNLOADS),
                    problem,
                    moved_to: None,
                });
            }
        }
        outcome.entries_sealed = self.seal_pending()?;
        Ok(outcome)
    }

    /// Checks one entry before it is linked: cheaply when its completeness
    /// marker (MAC'd by the user's record key) matches every file's size,
    /// mtime, ctime and inode, else by re-hashing it
    /// (then it is sealed with this process's other entries). One that no
    /// longer matches its name is moved to `quarantine/` (returned), so the
    /// caller can fetch it again.
    pub fn verify_entry(&self, digest: &Digest) -> Result<EntryCheck, StoreError> {
        self.check_entry(digest).0
    }

    /// [`Store::verify_entry`] of every entry of `digests` (results in their
    /// order), on up to one thread per core, for the project `owner` (its
    /// root). When the record of the entries `owner` checked last names
    /// exactly these and its stamps all still match
    /// ([`markers::set_holds`]), no marker is read; when every entry's own
    /// marker held, that record is written for the next run
    /// (docs/performance.md#the-no-op-install).
    ///
    /// `ahead`, when given, is that record's check begun earlier
    /// ([`Store::check_set_ahead`]) for this store and `owner`; it answers
    /// in place of reading the record again.
    pub fn verify_entries(
        &self,
        digests: &[Digest],
        owner: &Path,
        ahead: Option<SetCheckAhead>,
    ) -> Vec<Result<EntryCheck, StoreError>> {
        let mut set = digests.to_vec();
        set.sort();
        set.dedup();
        let record = sealed_set_record(&self.state_dir(), owner);
        let ahead = ahead.filter(|a| a.store_dir == self.store_dir() && a.owner == owner);
        let held = match ahead {
            Some(ahead) => (ahead.check.join().ok().flatten()).is_some_and(|c| c.holds_for(&set)),
            None => markers::set_holds(&record, &self.store_dir(), &set, self.key()),
        };
        if held {
            self.remember_sealed(&set);
            return digests.iter().map(|_| Ok(EntryCheck::Present)).collect();
        }
        let checked = crate::fs::parallel::map(digests, |d| self.check_entry(d));
        if let Some(key) = self.key() {
            let sealed: std::collections::BTreeMap<Digest, &String> = (digests.iter())
                .zip(&checked)
                .filter_map(|(d, (_, lines))| Some((*d, lines.as_ref()?)))
                .collect();
            if sealed.len() == set.len() {
                let sealed: Vec<(Digest, String)> =
                    sealed.into_iter().map(|(d, l)| (d, l.clone())).collect();
                markers::write_set(&record, &sealed, key);
            }
        }
        checked.into_iter().map(|(check, _)| check).collect()
    }

    /// [`Store::verify_entry`], with the marker's stat lines when the marker
    /// held.
    fn check_entry(&self, digest: &Digest) -> (Result<EntryCheck, StoreError>, Option<String>) {
        // The marker first: one that holds has seen the entry's folder (its
        // `d … .` line), so a no-op install asks nothing more of the entry
        // (docs/performance.md#the-no-op-install).
        if let Some(lines) = markers::sealed_lines(&self.store_dir(), digest, self.key()) {
            self.remember_sealed(std::slice::from_ref(digest));
            return (Ok(EntryCheck::Present), Some(lines));
        }
        let path = self.entry_path(digest);
        if !path.is_dir() {
            return (Ok(EntryCheck::Missing), None);
        }
        let check = match hash_tree(&path) {
            Ok(tree) if tree.digest == *digest => {
                self.mark_hashed(*digest);
                self.add_pending(tree, None);
                Ok(EntryCheck::Present)
            }
            _ => self
                .quarantine(&digest.file_name(), &path)
                .map(|moved| moved.map_or(EntryCheck::Missing, EntryCheck::Moved)),
        };
        (check, None)
    }

    /// Hashes entry `digest` in full unless this process already did (it
    /// imported or re-hashed it): the check before a tree is placed, which
    /// a marker cannot replace (an edit through a hard link may keep every
    /// size and mtime). An entry that no longer hashes to its name is moved
    /// to `quarantine/` and the new place returned; a missing one is `None`.
    pub fn verify_hashed(&self, digest: &Digest) -> Result<Option<PathBuf>, StoreError> {
        if self.was_hashed(digest) {
            return Ok(None);
        }
        self.hash_again(digest)
    }

    /// Hashes entry `digest` in full: `None` when it hashes to its name (or
    /// is missing), else where it was moved to in `quarantine/`.
    fn hash_again(&self, digest: &Digest) -> Result<Option<PathBuf>, StoreError> {
        let path = self.entry_path(digest);
        if !path.is_dir() {
            return Ok(None);
        }
        match hash_tree(&path) {
            Ok(tree) if tree.digest == *digest => {
                self.mark_hashed(*digest);
                Ok(None)
            }
            _ => self.quarantine(&digest.file_name(), &path),
        }
    }

    /// The file list of entry `digest` when its marker holds now
    /// ([`markers::sealed_tree`]), remembered for [`Store::verify_placeable`].
    pub(crate) fn sealed_entry(&self, digest: &Digest) -> Option<crate::digest::HashedTree> {
        let tree = markers::sealed_tree(&self.store_dir(), digest, self.key())?;
        self.remember_sealed(std::slice::from_ref(digest));
        Some(tree)
    }

    /// Entries whose markers (or project's sealed set) this process found to
    /// hold, for [`Store::verify_placeable`].
    fn remember_sealed(&self, digests: &[Digest]) {
        if let Ok(mut sealed) = self.sealed.lock() {
            sealed.extend(digests.iter().copied());
        }
    }

    /// The check before a tree is placed (docs/threat-model.md, "What the
    /// cache is"): nothing to do for an entry whose marker this process
    /// found to hold ([`Store::verify_entry`]: every file's and folder's
    /// size, mtime, ctime and inode as sealed, under the record key's MAC;
    /// an edit, even through a hard link keeping sizes and mtimes, moves a
    /// ctime no user-space writer can set back, which is what keeps an
    /// existing symlink placement trusted too). An entry this process made
    /// or hashed has its marker looked at now: it was judged from the bytes
    /// hashed then (`Store::verdict`), and a file a cache writer swapped in
    /// since must not be linked. Any other entry, or one whose marker does
    /// not hold, is hashed in full. Where `stat` has no ctime and inode (not
    /// unix) the marker is not enough.
    pub fn verify_placeable(&self, digest: &Digest) -> Result<Option<PathBuf>, StoreError> {
        if cfg!(unix) && self.sealed.lock().is_ok_and(|s| s.contains(digest)) {
            return Ok(None);
        }
        if cfg!(unix)
            && self.was_hashed(digest)
            && markers::is_sealed(&self.store_dir(), digest, self.key())
        {
            self.remember_sealed(std::slice::from_ref(digest));
            return Ok(None);
        }
        self.hash_again(digest)
    }

    pub(crate) fn mark_hashed(&self, digest: Digest) {
        if let Ok(mut hashed) = self.hashed.lock() {
            hashed.insert(digest);
        }
    }

    fn was_hashed(&self, digest: &Digest) -> bool {
        self.hashed.lock().is_ok_and(|h| h.contains(digest))
    }

    /// Moves a bad entry out of the store, under the commit lock.
    fn quarantine(&self, name: &str, path: &Path) -> Result<Option<PathBuf>, StoreError> {
        let lock = self.lock_commits()?;
        if fs::symlink_metadata(path).is_err() {
            return Ok(None); // someone else moved it meanwhile
        }
        if let Some(digest) = Digest::from_file_name(name) {
            self.drop_marker(&digest)
                .map_err(io_error("remove the marker of", path))?;
            // Whatever this run found of it no longer stands for it.
            if let Ok(mut sealed) = self.sealed.lock() {
                sealed.remove(&digest);
            }
        }
        let dir = self.quarantine_dir();
        fs::create_dir_all(&dir).map_err(io_error("create", &dir))?;
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let dest = dir.join(format!("{name}.{stamp}-{:08x}", fastrand::u32(..)));
        if path.is_dir() {
            // Moving a folder to another parent needs write access to it.
            set_dir_writable(path, true).map_err(io_error("unlock", path))?;
        }
        fs::rename(path, &dest).map_err(io_error("quarantine", path))?;
        drop(lock);
        Ok(Some(dest))
    }

    /// Removes entries and downloads that no project lock refers to. Roots:
    /// every registered project lock that still exists, plus `keep_locks`.
    /// Refuses when there is no root at all rather than remove everything.
    pub fn gc(&self, keep_locks: &[PathBuf], dry_run: bool) -> Result<GcOutcome, StoreError> {
        if !self.is_exclusive() {
            return Err(StoreError::NotExclusive("gc"));
        }
        let mut outcome = GcOutcome {
            dry_run,
            ..GcOutcome::default()
        };
        let LockRefs { trees, artifacts } = self.gc_roots(keep_locks, &mut outcome)?;

        for (name, path) in children(&self.store_dir())? {
            let Some(digest) = Digest::from_file_name(&name) else {
                continue; // staging folders and strays: verify's business
            };
            if trees.contains(&digest) {
                outcome.kept_entries += 1;
                continue;
            }
            outcome.bytes_freed += tree_size(&path);
            if !dry_run {
                self.discard_entry(&path)?;
            }
            outcome.removed_entries.push(digest);
        }
        if !dry_run {
            // Markers whose entry is gone (removed above, or by a crash).
            for (name, _) in children(&self.store_dir())? {
                if let Some(digest) = markers::marker_digest(&name)
                    && !self.entry_path(&digest).exists()
                {
                    self.drop_marker(&digest)
                        .map_err(io_error("remove the marker in", &self.store_dir()))?;
                }
            }
        }
        for (name, path) in children(&self.downloads_dir())? {
            match Digest::from_file_name(&name) {
                Some(digest) if artifacts.contains(&digest) => continue,
                Some(digest) => outcome.removed_downloads.push(digest),
                None => outcome.removed_other.push(path.clone()),
            }
            outcome.bytes_freed += tree_size(&path);
            if !dry_run {
                remove_tree(&path).map_err(io_error("remove", &path))?;
            }
        }
        for (_, path) in children(&self.quarantine_dir())? {
            outcome.bytes_freed += tree_size(&path);
            if !dry_run {
                remove_tree(&path).map_err(io_error("remove", &path))?;
            }
            outcome.removed_other.push(path);
        }
        outcome.removed_records = self.gc_records(dry_run)?;
        // `snapshots/` is left alone here: its collection (keep what a
        // registered lock's index digest names) belongs beside the code that
        // writes it, and plugs in at this point with the same `lock_files`.
        if !dry_run {
            self.forget_project_locks(&outcome.forgotten)?;
        }
        Ok(outcome)
    }

    /// Removes the records of `state/` that speak of trees the store no
    /// longer holds (after the entries above went): verdicts and artifact →
    /// tree records are worthless without their entry (the bytes are
    /// fetched, hashed and judged again), and a remembered gate pass names
    /// a set of trees that gc may just have broken, so all of them go (the
    /// next install re-derives its pass from the per-tree verdicts), as
    /// does every project's sealed set (re-made from the markers). A
    /// record's value is read without checking its MAC: a forged one can
    /// only make gc keep or drop a memo, never content.
    fn gc_records(&self, dry_run: bool) -> Result<usize, StoreError> {
        let state = self.state_dir();
        let mut gone: Vec<PathBuf> = Vec::new();
        let mut dropped = 0;
        let stored = |tree: Option<Digest>| tree.is_some_and(|tree| self.has_entry(&tree));
        let verdicts = state.join(super::verdicts::VERDICTS);
        let unpacked = state.join(super::unpacked::UNPACKED);
        // The batch files: each rewritten as one with the records kept.
        let batch = |dir: &Path, keep: &dyn Fn(&str, &str) -> bool| {
            super::unpacked::retain_batched(dir, keep, dry_run).map_err(io_error("rewrite", dir))
        };
        dropped += batch(&verdicts, &|key, _| stored(Digest::from_file_name(key)))?;
        dropped += batch(&unpacked, &|_, tree| stored(tree.parse().ok()))?;
        let single = |name: &str| !name.starts_with(super::unpacked::BATCH_PREFIX);
        for (name, path) in children(&verdicts)? {
            if single(&name) && !stored(Digest::from_file_name(&name)) {
                gone.push(path);
            }
        }
        for (name, path) in children(&unpacked)? {
            let tree = fs::read_to_string(&path)
                .ok()
                .and_then(|text| text.lines().next()?.parse::<Digest>().ok());
            if single(&name) && !stored(tree) {
                gone.push(path);
            }
        }
        for dir in [super::verdicts::PASSES, SEALED_SETS] {
            for (_, path) in children(&state.join(dir))? {
                gone.push(path);
            }
        }
        if !dry_run {
            for path in &gone {
                remove_tree(path).map_err(io_error("remove", path))?;
            }
        }
        Ok(gone.len() + dropped)
    }

    /// What gc keeps: the trees and artifacts every root lock refers to.
    /// Roots are `keep_locks` and each registered lock that still exists
    /// (one that does not goes to `outcome.forgotten`); read locks go to
    /// `outcome.lock_files`. No root at all is an error, not "keep nothing".
    fn gc_roots(
        &self,
        keep_locks: &[PathBuf],
        outcome: &mut GcOutcome,
    ) -> Result<LockRefs, StoreError> {
        let mut kept = LockRefs::default();
        let mut roots: Vec<PathBuf> = keep_locks.to_vec();
        for registered in self.registered_project_locks()? {
            if registered.exists() {
                roots.push(registered);
            } else {
                outcome.forgotten.push(registered);
            }
        }
        for lock in roots {
            let refs = read_lock_refs(&lock)?;
            kept.trees.extend(refs.trees);
            kept.artifacts.extend(refs.artifacts);
            if !outcome.lock_files.contains(&lock) {
                outcome.lock_files.push(lock);
            }
        }
        if outcome.lock_files.is_empty() {
            return Err(StoreError::NoGcRoots);
        }
        Ok(kept)
    }

    /// Empties the cache: entries, downloads, cached indexes, temporary files
    /// and quarantine. Keeps `state/` (rollback guard, project registry).
    pub fn clean(&self) -> Result<CleanOutcome, StoreError> {
        if !self.is_exclusive() {
            return Err(StoreError::NotExclusive("clean"));
        }
        let mut outcome = CleanOutcome::default();
        for sub in CLEANED {
            for (name, path) in children(&self.root().join(sub))? {
                outcome.bytes_freed += tree_size(&path);
                if *sub == layout::STORE && Digest::from_file_name(&name).is_some() {
                    self.discard_entry(&path)?;
                } else {
                    remove_tree(&path).map_err(io_error("remove", &path))?;
                }
                outcome.removed.push(path);
            }
        }
        Ok(outcome)
    }
}
