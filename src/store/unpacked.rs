//! Records of work this machine did, kept in the cache and authenticated
//! with the user's [`RecordKey`] (the cache is content, not authority:
//! docs/threat-model.md).
//!
//! - `state/unpacked/sha256-<artifact>`: the tree digest the store computed
//!   when it imported those artifact bytes (or checked out a git commit's
//!   folder, keyed by [`Unpacked::git_key`]). This is the artifact → tree
//!   link of a lock entry's chain. Without it a lock could keep an artifact
//!   digest the signed index lists and point its `tree` (and `approved`) at
//!   any other entry already in the store. When no valid record exists the
//!   artifact is unpacked again and must hash to the lock's tree.
//! - `state/proofs/<kind>/sha256-<key>`: a proof made online that an offline
//!   run may reuse (a git commit found on its declared ref, an MCP tree read
//!   from its declared server and URI).
//!
//! Each record holds its value and an HMAC over (kind, key, value); one
//! that does not verify (written by someone without the key) reads as
//! absent.

use std::path::{Path, PathBuf};

use crate::digest::{Digest, HashedTree, hash_tree};
use crate::trust::RecordKey;

/// In `state/`: one record per imported artifact (or git checkout).
pub(super) const UNPACKED: &str = "unpacked";

use super::{Store, StoreEntry, refresh_executables};

#[derive(Debug, Clone)]
pub struct Unpacked {
    records: Records,
}

impl Unpacked {
    pub fn in_cache(cache_root: &Path) -> Self {
        Unpacked {
            records: Records::batched(
                cache_root.join(crate::cache::layout::STATE).join(UNPACKED),
                "unpacked",
                RecordKey::user(),
            ),
        }
    }

    /// Remembers that `artifact` unpacked to `tree`. Not flushed (one record
    /// per skill; an fsync each made flushing proportional to the install):
    /// a record lost or torn by a crash reads as absent, and the artifact is
    /// then unpacked again.
    pub fn record(&self, artifact: &Digest, tree: &Digest) -> std::io::Result<()> {
        if self.tree_of(artifact) == Some(*tree) {
            return Ok(());
        }
        self.records.put(&artifact.file_name(), &tree.to_string())
    }

    /// The key a git checkout is recorded under: its repository, commit and
    /// folder (a commit pins content as an artifact digest does).
    pub fn git_key(url: &str, commit: &str, subpath: Option<&str>) -> Digest {
        Digest::of_bytes(format!("git\n{url}\n{commit}\n{}", subpath.unwrap_or("")).as_bytes())
    }

    /// The key a v0.1 file list is recorded under: the URLs of its files
    /// (a listing without per-file digests pins nothing else).
    pub fn files_key<'u>(urls: impl IntoIterator<Item = &'u url::Url>) -> Digest {
        let mut text = String::from("files\n");
        for u in urls {
            text.push_str(u.as_str());
            text.push('\n');
        }
        Digest::of_bytes(text.as_bytes())
    }

    /// The tree `artifact` unpacked to, when recorded by this user.
    pub fn tree_of(&self, artifact: &Digest) -> Option<Digest> {
        self.records.get(&artifact.file_name())?.parse().ok()
    }
}

/// Authenticated records of one `kind` in one folder.
#[derive(Debug, Clone)]
pub struct Records {
    dir: PathBuf,
    kind: &'static str,
    key: Option<&'static RecordKey>,
    /// Kept in batch files (one per run) rather than one file per key.
    batched: bool,
}

impl Records {
    pub fn new(dir: PathBuf, kind: &'static str, key: Option<&'static RecordKey>) -> Records {
        Records {
            dir,
            kind,
            key,
            batched: false,
        }
    }

    /// Records of which a run writes many (one per skill: verdicts, artifact
    /// → tree): kept in memory and written at [`flush_batches`] as one file
    /// per folder and run (`batch-<pid>-<rand>`, one MAC'd line per record),
    /// not one file per record: each file a cold install created per skill
    /// was an inode ext4 allocated (docs/performance.md#what-the-measurements-decided).
    /// Records of the one-file-per-key form (earlier versions) are still read.
    pub fn batched(dir: PathBuf, kind: &'static str, key: Option<&'static RecordKey>) -> Records {
        Records {
            batched: true,
            ..Records::new(dir, kind, key)
        }
    }

    /// `state/proofs/<kind>` of the cache, keyed by the user's key.
    pub fn proofs(cache_root: &Path, kind: &'static str) -> Records {
        Records::new(
            cache_root
                .join(crate::cache::layout::STATE)
                .join("proofs")
                .join(kind),
            kind,
            RecordKey::user(),
        )
    }

    /// The file of `key`: itself when it is a digest's file name, else the
    /// digest of the key.
    fn path(&self, key: &str) -> PathBuf {
        match Digest::from_file_name(key) {
            Some(_) => self.dir.join(key),
            None => self.dir.join(Digest::of_bytes(key.as_bytes()).file_name()),
        }
    }

    /// Writes `value` for `key` (nothing without a key: such records could
    /// not be told from forged ones).
    pub fn put(&self, key: &str, value: &str) -> std::io::Result<()> {
        let Some(k) = self.key else {
            return Ok(());
        };
        let tag = k.mac_hex(&[self.kind.as_bytes(), key.as_bytes(), value.as_bytes()]);
        if self.batched && batch::fits(key, value) {
            batch::put(&self.dir, key, &tag, value);
            return Ok(());
        }
        let text = format!("{value}\nmac {tag}\n");
        crate::fs::write_replacing(&self.path(key), text.as_bytes())
    }

    /// The value recorded for `key`, when its MAC verifies.
    pub fn get(&self, key: &str) -> Option<String> {
        let k = self.key?;
        let verified = |value: &str, tag: &str| {
            k.verify_hex(
                &[self.kind.as_bytes(), key.as_bytes(), value.as_bytes()],
                tag,
            )
        };
        if self.batched
            && let Some((tag, value)) = batch::get(&self.dir, key)
            && verified(&value, &tag)
        {
            return Some(value);
        }
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let (value, rest) = text.split_once('\n')?;
        let tag = rest.strip_prefix("mac ")?;
        verified(value, tag).then(|| value.to_owned())
    }
}

/// Writes the batched records this process made ([`Records::batched`]):
/// one new file per folder. Not flushed to disk: a record lost or torn by a
/// crash fails its MAC or is missing, and reads as absent (the work it
/// remembered is done again). Best effort for the same reason.
pub fn flush_batches() {
    batch::flush();
}

/// Keeps, in the batched records of `dir`, only those for which `keep(key,
/// value)` holds (their MAC is not checked: a forged record can only make
/// this keep or drop a memo): the kept ones are written to one new batch
/// file and every batch file read is removed. Returns how many records were
/// dropped (`dry_run`: only counts them). For `cache gc`, which holds the
/// cache exclusively.
pub(super) fn retain_batched(
    dir: &Path,
    keep: impl Fn(&str, &str) -> bool,
    dry_run: bool,
) -> std::io::Result<usize> {
    batch::retain(dir, keep, dry_run)
}

/// Name prefix of a batch file of records (never a digest's file name).
pub(super) const BATCH_PREFIX: &str = batch::PREFIX;

/// The batch files of record folders (see [`Records::batched`]).
mod batch {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// Name prefix of a batch file (never a digest's file name).
    pub(super) const PREFIX: &str = "batch-";
    /// More batch files than this in one folder are merged into one when a
    /// run writes its own.
    const MERGE_AT: usize = 16;

    /// What this process knows of one folder: the records read from its
    /// batch files (key → (MAC, value), the newest file winning) and the
    /// ones it made and has not written yet.
    #[derive(Default)]
    struct Folder {
        loaded: Option<Loaded>,
        pending: Vec<(String, String, String)>,
    }

    #[derive(Default)]
    struct Loaded {
        records: HashMap<String, (String, String)>,
        files: Vec<PathBuf>,
    }

    static FOLDERS: Mutex<Vec<(PathBuf, Folder)>> = Mutex::new(Vec::new());

    fn with_folder<T>(dir: &Path, f: impl FnOnce(&mut Folder) -> T) -> Option<T> {
        let mut folders = FOLDERS.lock().ok()?;
        let at = match folders.iter().position(|(d, _)| d == dir) {
            Some(at) => at,
            None => {
                folders.push((dir.to_owned(), Folder::default()));
                folders.len() - 1
            }
        };
        Some(f(&mut folders[at].1))
    }

    /// Whether a record can be one line of a batch file.
    pub(super) fn fits(key: &str, value: &str) -> bool {
        !key.is_empty() && !key.contains([' ', '\n']) && !value.contains('\n')
    }

    pub(super) fn put(dir: &Path, key: &str, tag: &str, value: &str) {
        with_folder(dir, |folder| {
            if let Some(loaded) = &mut folder.loaded {
                loaded
                    .records
                    .insert(key.to_owned(), (tag.to_owned(), value.to_owned()));
            }
            folder
                .pending
                .push((key.to_owned(), tag.to_owned(), value.to_owned()));
        });
    }

    /// (MAC, value) of `key`, unverified: this process's own, else the
    /// newest batch file's.
    pub(super) fn get(dir: &Path, key: &str) -> Option<(String, String)> {
        with_folder(dir, |folder| {
            if let Some((_, tag, value)) = folder.pending.iter().rev().find(|(k, ..)| k == key) {
                return Some((tag.clone(), value.clone()));
            }
            let loaded = folder.loaded.get_or_insert_with(|| load(dir));
            loaded.records.get(key).cloned()
        })
        .flatten()
    }

    /// Every record of `dir`'s batch files, the newest file last (so it wins).
    fn load(dir: &Path) -> Loaded {
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(PREFIX))
            .map(|e| {
                let modified = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                (modified, e.path())
            })
            .collect();
        files.sort();
        let mut loaded = Loaded::default();
        for (_, path) in files {
            // Bounded: a planted giant file is not a batch of records.
            if let Ok(Some(text)) = crate::fs::read_bounded(&path, 64 * 1024 * 1024) {
                for (key, tag, value) in text.lines().filter_map(parse_line) {
                    loaded
                        .records
                        .insert(key.to_owned(), (tag.to_owned(), value.to_owned()));
                }
            }
            loaded.files.push(path);
        }
        loaded
    }

    /// `<key> <mac> <value>`; a torn last line fails its MAC later.
    fn parse_line(line: &str) -> Option<(&str, &str, &str)> {
        let (key, rest) = line.split_once(' ')?;
        let (tag, value) = rest.split_once(' ')?;
        Some((key, tag, value))
    }

    fn line(out: &mut String, key: &str, tag: &str, value: &str) {
        out.push_str(key);
        out.push(' ');
        out.push_str(tag);
        out.push(' ');
        out.push_str(value);
        out.push('\n');
    }

    /// Writes `text` as a new batch file of `dir` (created whole under a
    /// name nobody else uses: no rename needed, a torn line fails its MAC).
    fn write_new(dir: &Path, text: &str) -> std::io::Result<PathBuf> {
        use std::io::Write;
        let path = dir.join(format!("{PREFIX}{}", crate::fs::unique_suffix()));
        let open = || {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
        };
        let mut file = match open() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir)?;
                open()?
            }
            other => other?,
        };
        file.write_all(text.as_bytes())?;
        Ok(path)
    }

    pub(super) fn flush() {
        let Ok(mut folders) = FOLDERS.lock() else {
            return;
        };
        for (dir, folder) in folders.iter_mut() {
            if folder.pending.is_empty() {
                continue;
            }
            let pending = std::mem::take(&mut folder.pending);
            let loaded = folder.loaded.get_or_insert_with(|| load(dir));
            let mut text = String::new();
            let merge = loaded.files.len() >= MERGE_AT;
            if merge {
                // Every record read, this run's replacing them: one file for
                // all; the files read go once it is written. A record another
                // process writes meanwhile is in a file not read here, so kept.
                for (key, (tag, value)) in &loaded.records {
                    if !pending.iter().any(|(k, ..)| k == key) {
                        line(&mut text, key, tag, value);
                    }
                }
            }
            for (key, tag, value) in &pending {
                line(&mut text, key, tag, value);
            }
            let Ok(written) = write_new(dir, &text) else {
                continue;
            };
            if merge {
                for old in std::mem::take(&mut loaded.files) {
                    let _ = std::fs::remove_file(old);
                }
            }
            loaded.files.push(written);
        }
    }

    /// Drops what this process read of `dir` (as a new process would start).
    #[cfg(test)]
    pub(super) fn forget(dir: &Path) {
        with_folder(dir, |folder| folder.loaded = None);
    }

    pub(super) fn retain(
        dir: &Path,
        keep: impl Fn(&str, &str) -> bool,
        dry_run: bool,
    ) -> std::io::Result<usize> {
        let loaded = load(dir);
        let mut text = String::new();
        let mut dropped = 0;
        for (key, (tag, value)) in &loaded.records {
            if keep(key, value) {
                line(&mut text, key, tag, value);
            } else {
                dropped += 1;
            }
        }
        if dry_run || (dropped == 0 && loaded.files.len() <= 1) {
            return Ok(dropped);
        }
        if !text.is_empty() {
            write_new(dir, &text)?;
        }
        for old in &loaded.files {
            std::fs::remove_file(old)?;
        }
        with_folder(dir, |folder| folder.loaded = None);
        Ok(dropped)
    }
}

// A warm cache: content the store already holds is neither downloaded nor
// unpacked again (docs/design.md#store).
//
// An index entry pins its artifact's digest. When this user's authenticated
// record (`state/unpacked`, see [`super::unpacked`]) says those bytes
// unpacked to a tree, and that tree's entry is in the store and still whole
// (its completeness marker holds, or it hashes right again), the entry is
// the result of downloading and unpacking the artifact, without doing
// either. A record written by anyone without the user's key reads as
// absent, so the cache alone cannot point an artifact at another tree.
impl Store {
    /// The stored entry that the artifact `artifact` unpacked to before,
    /// when it is still in the store and whole; `None` means: download and
    /// unpack it. `known_tree` gives a tree's remembered file list (checked
    /// against its digest by the caller's record); without one the entry is
    /// hashed.
    pub fn reuse_unpacked(
        &self,
        artifact: &Digest,
        known_tree: impl Fn(&Digest) -> Option<HashedTree>,
    ) -> Option<StoreEntry> {
        let digest = Unpacked::in_cache(self.root()).tree_of(artifact)?;
        // A sealed entry's marker gives its file list and modes (one read,
        // no `stat` of a file beyond the seal's own).
        if let Some(tree) = self.sealed_entry(&digest) {
            return Some(StoreEntry {
                digest,
                path: self.entry_path(&digest),
                tree,
                created: false,
            });
        }
        // An entry without a valid marker is re-hashed here; a bad one is
        // quarantined (then `None`: fetched again).
        if self.verify_entry(&digest).ok()? != super::EntryCheck::Present {
            return None;
        }
        let path = self.entry_path(&digest);
        let mut tree = match known_tree(&digest).filter(|t| t.digest == digest) {
            Some(tree) => tree,
            None => {
                let tree = hash_tree(&path).ok().filter(|t| t.digest == digest)?;
                self.mark_hashed(digest);
                tree
            }
        };
        // Executable bits are not part of the digest: the entry's own count.
        refresh_executables(&mut tree, &path);
        Some(StoreEntry {
            digest,
            path,
            tree,
            created: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_forgeries_read_as_absent() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&tmp.path().join("key"));
        let u = Unpacked {
            records: Records::new(tmp.path().join("u"), "unpacked", Some(key)),
        };
        let (a, t, evil) = (
            Digest::of_bytes(b"a"),
            Digest::of_bytes(b"t"),
            Digest::of_bytes(b"evil"),
        );
        assert_eq!(u.tree_of(&a), None);
        u.record(&a, &t).unwrap();
        assert_eq!(u.tree_of(&a), Some(t));
        // A cache writer without the key rewrites the record.
        let path = tmp.path().join("u").join(a.file_name());
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(&t.to_string(), &evil.to_string())).unwrap();
        assert_eq!(u.tree_of(&a), None);
        std::fs::write(&path, format!("{evil}\n")).unwrap();
        assert_eq!(u.tree_of(&a), None);
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|it| it.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        out.sort();
        out
    }

    /// Batched records: many puts are one file per flush, read back by a
    /// later reader; a forged line reads as absent; many files are merged;
    /// `retain` keeps only what it is told to, in one file.
    #[test]
    fn batched_records_are_one_file_per_run_and_still_authenticated() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&tmp.path().join("key"));
        let dir = tmp.path().join("b");
        let records = Records::batched(dir.clone(), "verdict", Some(key));
        let names: Vec<String> = (0..50)
            .map(|i| Digest::of_bytes(format!("{i}").as_bytes()).file_name())
            .collect();
        for name in &names {
            records.put(name, &format!("value of {name}")).unwrap();
        }
        // Seen by this process before the flush; nothing on disk yet.
        assert_eq!(
            records.get(&names[3]),
            Some(format!("value of {}", names[3]))
        );
        assert!(files(&dir).is_empty());
        flush_batches();
        assert_eq!(files(&dir).len(), 1);
        // Another process (a fresh view of the folder) reads them back.
        batch::forget(&dir);
        assert_eq!(
            records.get(&names[7]),
            Some(format!("value of {}", names[7]))
        );

        // A cache writer without the key edits one value and keeps the MAC.
        let file = files(&dir).remove(0);
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("value of", "forged of")).unwrap();
        batch::forget(&dir);
        assert_eq!(records.get(&names[7]), None);
        std::fs::write(&file, &text).unwrap();
        batch::forget(&dir);
        // A record of the older one-file form is still read.
        let old = Digest::of_bytes(b"old").file_name();
        Records::new(dir.clone(), "verdict", Some(key))
            .put(&old, "kept before")
            .unwrap();
        assert_eq!(records.get(&old), Some("kept before".into()));
        std::fs::remove_file(dir.join(&old)).unwrap();

        // Many runs: past the limit their files are merged into one.
        for (run, name) in names.iter().enumerate().take(20) {
            batch::forget(&dir);
            records.put(name, &format!("run {run}")).unwrap();
            flush_batches();
        }
        assert!(files(&dir).len() < 16, "{:?}", files(&dir));
        batch::forget(&dir);
        assert_eq!(records.get(&names[19]), Some("run 19".into()));
        assert_eq!(
            records.get(&names[30]),
            Some(format!("value of {}", names[30]))
        );

        // gc: only what `keep` keeps, in one file.
        let dropped = retain_batched(&dir, |k, _| k == names[30], false).unwrap();
        assert_eq!(dropped, 49);
        assert_eq!(files(&dir).len(), 1);
        batch::forget(&dir);
        assert_eq!(records.get(&names[29]), None);
        assert_eq!(
            records.get(&names[30]),
            Some(format!("value of {}", names[30]))
        );
    }
}
