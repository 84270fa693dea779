//! Advisory locks on files that their holders may delete.
//!
//! Per-item lock files (see [`super::temp`]) must not pile up, so whoever holds
//! one may unlink it before releasing. The classic hazard: a waiter then
//! locks the unlinked inode while a newcomer creates and locks a fresh file
//! of the same name, and both believe they hold the lock. The cure used
//! here: after locking, check the path still names the locked inode, and
//! retry when it does not.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

/// An exclusive lock on `path`, held until dropped (or released with removal).
#[derive(Debug)]
pub struct HeldLock {
    file: File,
    path: PathBuf,
}

impl HeldLock {
    /// Waits for the exclusive lock on `path`, creating the file if needed.
    pub fn acquire(path: &Path) -> io::Result<HeldLock> {
        loop {
            let file = open_lock_file(path, true)?;
            file.lock()?;
            if let Some(lock) = held_if_named(path, file) {
                return Ok(lock);
            }
        }
    }

    /// Creates `path` (which must not exist) and locks it. `Ok(None)` when the
    /// name was taken or the file was removed before it could be locked.
    pub fn create_new(path: &Path) -> io::Result<Option<HeldLock>> {
        let file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(None),
            Err(e) => return Err(e),
        };
        // A cleaner may have found the new, not yet locked file and removed
        // it: then the name is no longer ours.
        file.lock()?;
        Ok(held_if_named(path, file))
    }

    /// Locks an existing `path` without waiting; `Ok(None)` when someone
    /// holds it or it is gone. A lock nobody holds belongs to a dead process.
    pub fn try_existing(path: &Path) -> io::Result<Option<HeldLock>> {
        let file = match open_lock_file(path, false) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(None),
            Err(TryLockError::Error(e)) => return Err(e),
        }
        Ok(held_if_named(path, file))
    }

    /// Unlinks the lock file, then releases the lock: waiters notice the
    /// removal and retry on a fresh file.
    pub fn release_and_remove(self) {
        // A leftover lock file is harmless: the next cleaner removes it.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// The lock held on `file`, if `path` still names it (see the module doc).
fn held_if_named(path: &Path, file: File) -> Option<HeldLock> {
    names_same_file(path, &file).then(|| HeldLock {
        file,
        path: path.to_owned(),
    })
}

fn open_lock_file(path: &Path, create: bool) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .truncate(false)
        .open(path)
}

/// Whether `path` still names the inode `file` refers to.
#[cfg(unix)]
fn names_same_file(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Windows refuses to delete a file another handle holds open without
/// sharing delete access, so a name that still exists is the file we hold.
#[cfg(not(unix))]
fn names_same_file(path: &Path, _file: &File) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_lock_is_not_held_by_a_late_waiter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let first = HeldLock::acquire(&path).unwrap();
        let waiter = {
            let path = path.clone();
            std::thread::spawn(move || {
                let lock = HeldLock::acquire(&path).unwrap();
                // The waiter must hold the file that the path names now.
                assert!(names_same_file(&path, &lock.file));
                lock.release_and_remove();
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        first.release_and_remove();
        waiter.join().unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn try_existing_sees_held_and_missing_locks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("y.lock");
        assert!(HeldLock::try_existing(&path).unwrap().is_none(), "missing");
        let held = HeldLock::create_new(&path).unwrap().unwrap();
        assert!(HeldLock::create_new(&path).unwrap().is_none(), "name taken");
        assert!(HeldLock::try_existing(&path).unwrap().is_none(), "held");
        drop(held);
        let stale = HeldLock::try_existing(&path)
            .unwrap()
            .expect("nobody holds it");
        stale.release_and_remove();
        assert!(!path.exists());
    }
}
