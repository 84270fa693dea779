//! Temporary files and folders that a killed process cannot strand and a
//! sweeper cannot take from a live one.
//!
//! The protocol (the store's and the fetcher's, see `crate::store`):
//!
//! 1. **Ownership before existence.** An item `<dir>/X` is owned through a
//!    companion lock file `<dir>/X.lock`, created with `O_EXCL`, locked, and
//!    checked to still be the file its name points at, all *before* `X` is
//!    created. The owner removes `X` first and `X.lock` last (or renames `X`
//!    into its final place, then removes `X.lock`).
//! 2. **Sweeping takes the same lock.** A sweeper removes `X` only while it
//!    holds `X.lock` itself: a lock nobody holds means the owner is dead (the
//!    kernel drops a dead process's locks), or that a creator has not locked
//!    it yet, in which case `X` does not exist yet and the creator, seeing
//!    its lock file replaced, picks another name. Two sweepers cannot both
//!    hold one lock, so they never remove the same tree at once.
//! 3. **No lock file, no live owner.** An `X` without `X.lock` was stranded
//!    by an interrupted owner (or written by a program that does not follow
//!    this protocol). A sweeper claims it by creating `X.lock` itself, and
//!    removes it only once it is older than [`LOCKLESS_GRACE`], like git's
//!    `gc.pruneExpire`: a writer that knows nothing of these locks is never
//!    raced.
//! 4. **One lock for many items.** A process that makes many items in a row
//!    (the store's staging folders, the fetcher's downloads) reserves one
//!    base name `<dir>/B` with its lock `<dir>/B.lock` once ([`TempGroup`]),
//!    and names its items `<dir>/B.<n>`. They are owned through `B.lock`
//!    exactly as `B` would be: a sweeper that holds `B.lock` removes `B` and
//!    every `B.<n>`, and never judges a `B.<n>` by age while `B.lock` exists.
//!    A lock file per item was an inode created and deleted per skill, and
//!    ext4's allocator then walks past every recently deleted inode for each
//!    new one (docs/performance.md#what-the-measurements-decided).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use super::lock::HeldLock;
use super::tree::remove_tree;

/// Suffix of the lock file that owns a temporary item.
pub const LOCK_SUFFIX: &str = ".lock";

/// How old an item without a lock file must be before a sweeper removes it.
pub const LOCKLESS_GRACE: Duration = Duration::from_secs(15 * 60);

/// A name `<dir>/<prefix><random>` owned by this process through its lock
/// file. The item itself (file or folder) is the caller's to create; on drop
/// it is removed unless [`Reserved::keep`] was called, then the lock goes.
#[derive(Debug)]
pub struct Reserved {
    path: PathBuf,
    lock: Option<HeldLock>,
    /// The group whose lock owns this item (rule 4), kept alive with it.
    _group: Option<Arc<GroupLock>>,
    keep: bool,
}

/// A fresh name `<prefix><random>` in `dir` (created when missing) and its
/// held lock file.
fn reserve_name(dir: &Path, prefix: &str) -> io::Result<(String, HeldLock)> {
    loop {
        let name = format!("{prefix}{:016x}", fastrand::u64(..));
        let lock_path = dir.join(format!("{name}{LOCK_SUFFIX}"));
        let lock = match HeldLock::create_new(&lock_path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir)?;
                HeldLock::create_new(&lock_path)?
            }
            other => other?,
        };
        // 64 random bits: an orphan item of the same name is not worth a
        // stat per reservation; creating the item would fail loudly anyway.
        if let Some(lock) = lock {
            return Ok((name, lock));
        }
    }
}

impl Reserved {
    /// Reserves a fresh name in `dir` (created when missing).
    pub fn new(dir: &Path, prefix: &str) -> io::Result<Reserved> {
        let (name, lock) = reserve_name(dir, prefix)?;
        Ok(Reserved {
            path: dir.join(name),
            lock: Some(lock),
            _group: None,
            keep: false,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The item was moved into its final place: only the lock remains to go.
    pub fn keep(mut self) {
        self.keep = true;
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        if !self.keep {
            // Best effort: if this fails, the next sweep removes it.
            let _ = remove_tree(&self.path);
        }
        if let Some(lock) = self.lock.take() {
            lock.release_and_remove();
        }
    }
}

/// The lock of a [`TempGroup`], released (and its file removed) once the
/// group and every item reserved from it are gone.
#[derive(Debug)]
struct GroupLock(Option<HeldLock>);

impl Drop for GroupLock {
    fn drop(&mut self) {
        if let Some(lock) = self.0.take() {
            lock.release_and_remove();
        }
    }
}

/// Many temporary items under one lock (rule 4 of the module doc):
/// `<dir>/<base>.<n>`, owned through `<dir>/<base>.lock`. Share it between
/// threads; each reservation is one atomic increment, no file.
#[derive(Debug)]
pub struct TempGroup {
    dir: PathBuf,
    base: String,
    lock: Arc<GroupLock>,
    next: AtomicU64,
}

impl TempGroup {
    /// Reserves the base name `<prefix><random>` in `dir` (created when missing).
    pub fn new(dir: &Path, prefix: &str) -> io::Result<TempGroup> {
        let (base, lock) = reserve_name(dir, prefix)?;
        Ok(TempGroup {
            dir: dir.to_owned(),
            base,
            lock: Arc::new(GroupLock(Some(lock))),
            next: AtomicU64::new(0),
        })
    }

    /// The next item name of this group; the item is the caller's to create.
    pub fn reserve(&self) -> Reserved {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        Reserved {
            path: self.dir.join(format!("{}.{n}", self.base)),
            lock: None,
            _group: Some(Arc::clone(&self.lock)),
            keep: false,
        }
    }

    /// A new temporary folder of this group.
    pub fn temp_dir(&self) -> io::Result<TempDir> {
        let reserved = self.reserve();
        fs::create_dir(reserved.path())?;
        Ok(TempDir(reserved))
    }

    /// A new temporary file of this group.
    pub fn temp_file(&self) -> io::Result<TempFile> {
        TempFile::open(self.reserve())
    }
}

/// A [`TempGroup`] made on first use, so a process that never needs a
/// temporary item makes no lock file.
#[derive(Debug)]
pub struct LazyGroup {
    dir: PathBuf,
    prefix: &'static str,
    slot: std::sync::Mutex<Option<Arc<TempGroup>>>,
}

impl LazyGroup {
    pub fn new(dir: PathBuf, prefix: &'static str) -> LazyGroup {
        LazyGroup {
            dir,
            prefix,
            slot: std::sync::Mutex::new(None),
        }
    }

    /// The group, made (with its lock file) on the first call.
    pub fn get(&self) -> io::Result<Arc<TempGroup>> {
        let mut slot = self
            .slot
            .lock()
            .map_err(|_| io::Error::other("a thread failed while reserving a temporary name"))?;
        if let Some(group) = &*slot {
            return Ok(Arc::clone(group));
        }
        let group = Arc::new(TempGroup::new(&self.dir, self.prefix)?);
        *slot = Some(Arc::clone(&group));
        Ok(group)
    }
}

/// The base name of a group item `<base>.<n>` (rule 4), if `name` is one.
fn group_base(name: &str) -> Option<&str> {
    let (base, n) = name.rsplit_once('.')?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(base)
}

/// A temporary folder, removed on drop unless [`TempDir::keep`] is called
/// after it was renamed into place.
#[derive(Debug)]
pub struct TempDir(Reserved);

impl TempDir {
    /// Creates `<parent>/<prefix><random>/` with its lock held.
    pub fn create(parent: &Path, prefix: &str) -> io::Result<TempDir> {
        let reserved = Reserved::new(parent, prefix)?;
        fs::create_dir(reserved.path())?;
        Ok(TempDir(reserved))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    pub fn keep(self) {
        self.0.keep()
    }
}

/// A temporary file, removed on drop unless [`TempFile::persisted`] is
/// called after it was renamed into place.
#[derive(Debug)]
pub struct TempFile {
    file: Option<File>,
    reserved: Reserved,
}

impl TempFile {
    /// Creates the file at the reserved name (which must not exist yet).
    fn open(reserved: Reserved) -> io::Result<TempFile> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(reserved.path())?;
        Ok(TempFile {
            file: Some(file),
            reserved,
        })
    }

    pub fn path(&self) -> &Path {
        self.reserved.path()
    }

    /// Flushes the bytes to disk and closes the file, keeping its lock.
    pub fn close_synced(&mut self) -> io::Result<()> {
        match self.file.take() {
            Some(file) => file.sync_all(),
            None => Ok(()),
        }
    }

    /// The file was renamed into place.
    pub fn persisted(mut self) {
        self.file.take();
        self.reserved.keep();
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.file.as_mut() {
            Some(file) => file.write(buf),
            None => Err(io::Error::other("temporary file already closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// Removes what dead processes left in `dir` under the protocol above.
/// `only` limits the sweep to names with that prefix (the store's entries
/// live beside its staging folders). Returns how many items were removed.
pub fn sweep(dir: &Path, only: Option<&str>) -> io::Result<usize> {
    let mut removed = 0;
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry?;
        if let Ok(name) = entry.file_name().into_string()
            && only.is_none_or(|prefix| name.starts_with(prefix))
        {
            names.push(name);
        }
    }
    let present: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
    for name in &names {
        let path = dir.join(name);
        if let Some(item) = name.strip_suffix(LOCK_SUFFIX) {
            if let Some(lock) = HeldLock::try_existing(&path)? {
                if remove_item(&dir.join(item))? {
                    removed += 1;
                }
                // The items of a dead group (rule 4), listed again now that
                // its lock is ours: the listing above may predate items the
                // owner made before it died, and no one can add one now.
                for member in group_members(dir, item)? {
                    if remove_item(&dir.join(member))? {
                        removed += 1;
                    }
                }
                lock.release_and_remove();
            }
        } else if group_base(name)
            .is_some_and(|base| present.contains(format!("{base}{LOCK_SUFFIX}").as_str()))
        {
            // Owned by its group's lock: judged with that lock above.
        } else if is_lockless_and_old(dir, name, &path) {
            let lock_path = dir.join(format!("{name}{LOCK_SUFFIX}"));
            if let Some(lock) = HeldLock::create_new(&lock_path)? {
                if remove_item(&path)? {
                    removed += 1;
                }
                lock.release_and_remove();
            }
        }
    }
    Ok(removed)
}

/// The names in `dir` of the items of group `base` (`<base>.<n>`).
fn group_members(dir: &Path, base: &str) -> io::Result<Vec<String>> {
    let mut members = Vec::new();
    for entry in fs::read_dir(dir)? {
        if let Ok(name) = entry?.file_name().into_string()
            && group_base(&name) == Some(base)
        {
            members.push(name);
        }
    }
    Ok(members)
}

/// Removes an item; `false` when it was already gone.
fn remove_item(item: &Path) -> io::Result<bool> {
    if fs::symlink_metadata(item).is_err() {
        return Ok(false);
    }
    remove_tree(item)?;
    Ok(true)
}

fn is_lockless_and_old(dir: &Path, name: &str, path: &Path) -> bool {
    if fs::symlink_metadata(dir.join(format!("{name}{LOCK_SUFFIX}"))).is_ok() {
        return false;
    }
    let modified = fs::symlink_metadata(path).and_then(|m| m.modified());
    match modified {
        Ok(time) => SystemTime::now()
            .duration_since(time)
            .is_ok_and(|age| age >= LOCKLESS_GRACE),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(path: &Path) {
        let old = SystemTime::now() - LOCKLESS_GRACE - Duration::from_secs(60);
        File::open(path).unwrap().set_modified(old).unwrap();
    }

    #[test]
    fn sweep_spares_live_items_and_removes_dead_ones() {
        let dir = tempfile::tempdir().unwrap();
        let live = TempDir::create(dir.path(), ".stage-").unwrap();
        fs::write(live.path().join("f"), "x").unwrap();

        // A dead process: its lock file exists, nobody holds it.
        let dead = dir.path().join(".stage-dead");
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join("f"), "x").unwrap();
        fs::write(dir.path().join(".stage-dead.lock"), "").unwrap();
        // An old orphan without a lock file, and a fresh one (perhaps a
        // writer that does not lock: spared for the grace period).
        let orphan = dir.path().join(".stage-orphan");
        fs::create_dir(&orphan).unwrap();
        age(&orphan);
        fs::create_dir(dir.path().join(".stage-fresh")).unwrap();
        // Not ours to judge.
        fs::create_dir(dir.path().join("sha256-entry")).unwrap();

        let removed = sweep(dir.path(), Some(".stage-")).unwrap();
        assert_eq!(removed, 2);
        assert!(live.path().join("f").exists());
        assert!(!dead.exists());
        assert!(!dir.path().join(".stage-dead.lock").exists());
        assert!(!orphan.exists());
        assert!(!dir.path().join(".stage-orphan.lock").exists());
        assert!(dir.path().join(".stage-fresh").exists());
        assert!(dir.path().join("sha256-entry").exists());

        let live_path = live.path().to_owned();
        drop(live);
        assert!(!live_path.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_group_owns_its_items_through_one_lock() {
        let dir = tempfile::tempdir().unwrap();
        let group = TempGroup::new(dir.path(), ".stage-").unwrap();
        let a = group.temp_dir().unwrap();
        let b = group.temp_dir().unwrap();
        fs::write(a.path().join("f"), "x").unwrap();
        assert_ne!(a.path(), b.path());
        // Live: a sweep spares the items, even old ones.
        age(b.path());
        assert_eq!(sweep(dir.path(), Some(".stage-")).unwrap(), 0);
        assert!(a.path().join("f").exists() && b.path().exists());
        // Kept items stay; the rest go with the group; the lock goes last.
        let kept = dir.path().join("kept");
        fs::rename(a.path(), &kept).unwrap();
        a.keep();
        let b_path = b.path().to_owned();
        drop(b);
        assert!(!b_path.exists());
        drop(group);
        assert!(kept.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);

        // A dead group: its lock file exists, nobody holds it.
        fs::write(dir.path().join(".stage-dead.lock"), "").unwrap();
        fs::create_dir(dir.path().join(".stage-dead.0")).unwrap();
        fs::write(dir.path().join(".stage-dead.0/f"), "x").unwrap();
        fs::write(dir.path().join(".stage-dead.1"), "x").unwrap();
        assert_eq!(sweep(dir.path(), Some(".stage-")).unwrap(), 2);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn temp_files_vanish_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let mut tmp =
            TempFile::open(Reserved::new(&dir.path().join("new"), "download-").unwrap()).unwrap();
        tmp.write_all(b"abc").unwrap();
        let path = tmp.path().to_owned();
        assert!(path.exists());
        // A sweeper running meanwhile leaves it alone.
        assert_eq!(sweep(&dir.path().join("new"), None).unwrap(), 0);
        assert!(path.exists());
        drop(tmp);
        assert!(!path.exists());
        assert_eq!(fs::read_dir(dir.path().join("new")).unwrap().count(), 0);
    }
}
