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

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
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
    keep: bool,
}

impl Reserved {
    /// Reserves a fresh name in `dir` (created when missing).
    pub fn new(dir: &Path, prefix: &str) -> io::Result<Reserved> {
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
                return Ok(Reserved {
                    path: dir.join(name),
                    lock: Some(lock),
                    keep: false,
                });
            }
        }
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
    /// Creates `<dir>/<prefix><random>` with its lock held.
    pub fn create(dir: &Path, prefix: &str) -> io::Result<TempFile> {
        let reserved = Reserved::new(dir, prefix)?;
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
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if only.is_some_and(|prefix| !name.starts_with(prefix)) {
            continue;
        }
        let path = entry.path();
        if let Some(item) = name.strip_suffix(LOCK_SUFFIX) {
            if let Some(lock) = HeldLock::try_existing(&path)? {
                if remove_item(&dir.join(item))? {
                    removed += 1;
                }
                lock.release_and_remove();
            }
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
    fn temp_files_vanish_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let mut tmp = TempFile::create(&dir.path().join("new"), "download-").unwrap();
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
