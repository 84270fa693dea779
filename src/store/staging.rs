//! Temporary things inside the cache (same file system as their final
//! place, so the last step is an atomic rename), and the cleanup of what a
//! killed process left behind.
//!
//! Every temporary item `X` has a companion lock file `X.lock`, created and
//! locked *before* `X` and removed *after* it. So: a lock file nobody holds
//! belongs to a dead process and both go; an item without its lock file is
//! likewise orphaned. A live process's items are never touched.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::fsutil::remove_tree;
use super::lockfile::HeldLock;

/// Name prefix of staging folders inside `store/` (beside their destination:
/// renaming within one parent needs no write permission on the folder itself).
pub(crate) const STAGE_PREFIX: &str = ".stage-";
const LOCK_SUFFIX: &str = ".lock";

/// A staging folder, removed on drop unless committed.
#[derive(Debug)]
pub(crate) struct Staging {
    dir: PathBuf,
    lock: Option<HeldLock>,
    committed: bool,
}

impl Staging {
    /// Creates `<parent>/.stage-<random>` with its lock held.
    pub(crate) fn create(parent: &Path) -> io::Result<Staging> {
        let (dir, lock) = reserve(parent, STAGE_PREFIX)?;
        fs::create_dir(&dir)?;
        Ok(Staging {
            dir,
            lock: Some(lock),
            committed: false,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.dir
    }

    /// The folder was renamed into place: nothing to remove but the lock.
    pub(crate) fn committed(mut self) {
        self.committed = true;
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: if this fails, the next run's cleanup removes it.
            let _ = remove_tree(&self.dir);
        }
        if let Some(lock) = self.lock.take() {
            lock.release_and_remove();
        }
    }
}

/// A temporary file in `<cache>/tmp`, for a download in progress. Removed on
/// drop unless persisted by [`super::Store::commit_download`].
#[derive(Debug)]
pub struct TempFile {
    file: Option<File>,
    path: PathBuf,
    lock: Option<HeldLock>,
}

impl TempFile {
    pub(crate) fn create(dir: &Path) -> io::Result<TempFile> {
        let (path, lock) = reserve(dir, "download-")?;
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        Ok(TempFile {
            file: Some(file),
            path,
            lock: Some(lock),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes the bytes to disk and closes the file, keeping its lock.
    pub(crate) fn close_synced(&mut self) -> io::Result<()> {
        match self.file.take() {
            Some(file) => file.sync_all(),
            None => Ok(()),
        }
    }

    /// The file was renamed into place.
    pub(crate) fn persisted(mut self) {
        self.path = PathBuf::new();
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

impl Drop for TempFile {
    fn drop(&mut self) {
        self.file.take();
        if !self.path.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.path);
        }
        if let Some(lock) = self.lock.take() {
            lock.release_and_remove();
        }
    }
}

/// Picks an unused name `<dir>/<prefix><random>` and holds its lock file.
fn reserve(dir: &Path, prefix: &str) -> io::Result<(PathBuf, HeldLock)> {
    loop {
        let name = format!("{prefix}{:016x}", fastrand::u64(..));
        let item = dir.join(&name);
        let lock_path = dir.join(format!("{name}{LOCK_SUFFIX}"));
        // 64 random bits: an orphan item of the same name is not worth a
        // stat per reservation; creating the item would fail loudly anyway.
        if let Some(lock) = HeldLock::create_new(&lock_path)? {
            return Ok((item, lock));
        }
    }
}

/// Removes what dead processes left in `dir`: items whose lock nobody holds
/// and items without a lock file. `only` limits the sweep to names with that
/// prefix (the store's own entries live beside its staging folders).
/// Returns how many items were removed.
pub(crate) fn clean_debris(dir: &Path, only: Option<&str>) -> io::Result<usize> {
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
                let item = dir.join(item);
                if fs::symlink_metadata(&item).is_ok() {
                    remove_tree(&item)?;
                    removed += 1;
                }
                lock.release_and_remove();
            }
        } else if fs::symlink_metadata(dir.join(format!("{name}{LOCK_SUFFIX}"))).is_err() {
            // Created after its lock and removed before it: without a lock
            // file, no live process owns it.
            remove_tree(&path)?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleanup_spares_live_staging_and_removes_dead_ones() {
        let dir = tempfile::tempdir().unwrap();
        let live = Staging::create(dir.path()).unwrap();
        fs::write(live.path().join("f"), "x").unwrap();

        // A dead process: its lock file exists, nobody holds it.
        let dead = dir.path().join(".stage-dead");
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join("f"), "x").unwrap();
        fs::write(dir.path().join(".stage-dead.lock"), "").unwrap();
        // An orphan without a lock file.
        fs::create_dir(dir.path().join(".stage-orphan")).unwrap();
        // Not ours to judge.
        fs::create_dir(dir.path().join("sha256-entry")).unwrap();

        let removed = clean_debris(dir.path(), Some(STAGE_PREFIX)).unwrap();
        assert_eq!(removed, 2);
        assert!(live.path().join("f").exists());
        assert!(!dead.exists());
        assert!(!dir.path().join(".stage-dead.lock").exists());
        assert!(!dir.path().join(".stage-orphan").exists());
        assert!(dir.path().join("sha256-entry").exists());

        let live_path = live.path().to_owned();
        drop(live);
        assert!(!live_path.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn temp_files_vanish_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let mut tmp = TempFile::create(dir.path()).unwrap();
        tmp.write_all(b"abc").unwrap();
        let path = tmp.path().to_owned();
        assert!(path.exists());
        drop(tmp);
        assert!(!path.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
