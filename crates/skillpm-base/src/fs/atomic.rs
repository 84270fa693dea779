//! Whole-file writes that are either fully done or not done at all.
//!
//! The bytes land in a temporary file in the same folder and only then are
//! renamed over the target, so a crash or a kill at any instant leaves the
//! old file or the new one, never a truncated mix. [`write_atomic`] also
//! flushes the file and its folder (for files that must survive a power
//! loss: skills.toml, skills.lock, the rollback guard), and
//! [`write_atomic_all`] does so for several files at once, each folder
//! flushed once after every rename; [`write_replacing`]
//! does not (for records a crash may lose harmlessly, because their reader
//! checks them). [`write_flushed_behind`] puts a file in place at once and
//! flushes it on a thread of its own: durable before this process's next
//! [`write_atomic`] and before it ends ([`settle_behind`]), so nothing
//! written durably afterwards (a lock naming it) can outlive it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` atomically and durably (file and folder
/// fsynced). The parent folder is created when missing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &[bytes], true)
}

/// [`write_atomic`] of several files (path, bytes): every file is written
/// and flushed (side by side, one thread each), then each is renamed into
/// place in order, then each folder they are in is flushed once.
/// skills.toml and skills.lock cost three flushes this way, four one file
/// after the other, and the two file flushes overlap
/// (docs/performance.md#what-the-measurements-decided).
/// Each file is replaced atomically, and all are durable when it returns;
/// a crash before then leaves each file old or new. Which renames survive a
/// crash together is the file system's: ext4 with a journal keeps them in
/// order, but without one (many CI and cloud disks) a later file may be new
/// and an earlier one old, which one file after the other, with a folder
/// flush between, ruled out. On error, the index of the file that failed: files before it
/// are replaced, it and the files after it are not, and no temporary file
/// is left.
pub fn write_atomic_all(files: &[(&Path, &[u8])]) -> Result<(), (usize, io::Error)> {
    // What was put in place before this durable write is durable first.
    settle_behind();
    // Written and flushed side by side: on a disk whose flush takes a
    // millisecond or more, two that overlap take about the time of one
    // (docs/performance.md#what-the-measurements-decided).
    let mut staged = Vec::with_capacity(files.len());
    let written = super::parallel::map_at_once(files, |(path, bytes)| stage(path, &[bytes], true));
    for (i, temp) in written.into_iter().enumerate() {
        staged.push(temp.map_err(|e| (i, e))?);
    }
    let mut folders: Vec<PathBuf> = Vec::new();
    for (i, ((path, _), guard)) in files.iter().zip(staged).enumerate() {
        put_in_place(guard, path).map_err(|e| (i, e))?;
        let dir = parent_dir(path);
        if !folders.contains(&dir) {
            folders.push(dir);
        }
    }
    for dir in folders {
        // Best effort, as in `replace`.
        let _ = sync_dir(&dir);
    }
    Ok(())
}

/// Replaces `path` with `bytes` atomically but without fsync: readers see
/// the old file or the new one, never half of one, but a power loss may lose
/// the change. For records whose reader validates them.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &[bytes], false)
}

/// [`write_replacing`] of the concatenation of `parts`.
pub fn write_replacing_parts(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    replace(path, parts, false)
}

/// Flushes started by [`write_flushed_behind`] and not yet waited for.
static BEHIND: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(Vec::new());

/// Puts `bytes` in place at `path` as [`write_replacing`] does, then flushes
/// the file and its folder on a thread of its own, off the caller's path (an
/// index snapshot's flush was 70 ms of a 5-skill add, docs/performance.md).
/// Ordering is kept: every later [`write_atomic`] of this process first waits
/// for these flushes, and [`settle_behind`] waits for them before the process
/// ends. A power loss before the flush may leave a partial file under `path`:
/// only for content-addressed files whose reader hashes them and removes one
/// that does not match (`store::snapshots`).
pub fn write_flushed_behind(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, &[bytes], false)?;
    let (file, dir) = (path.to_owned(), parent_dir(path));
    let flush = std::thread::spawn(move || {
        // Best effort, as the folder's flush in `replace`: a file that could
        // not be flushed is checked by its reader.
        let _ = File::open(&file).and_then(|f| f.sync_all());
        let _ = sync_dir(&dir);
    });
    if let Ok(mut behind) = BEHIND.lock() {
        behind.push(flush);
    }
    Ok(())
}

/// Waits for every flush [`write_flushed_behind`] started (call before the
/// process ends; [`write_atomic`] calls it first).
pub fn settle_behind() {
    let pending = BEHIND.lock().map(|mut b| std::mem::take(&mut *b));
    for flush in pending.unwrap_or_default() {
        let _ = flush.join();
    }
}

fn replace(path: &Path, parts: &[&[u8]], durable: bool) -> io::Result<()> {
    if durable {
        // What was put in place before this durable write is durable first.
        settle_behind();
    }
    put_in_place(stage(path, parts, durable)?, path)?;
    if durable {
        // Best effort: some platforms cannot open a folder for syncing.
        let _ = sync_dir(&parent_dir(path));
    }
    Ok(())
}

/// Renames the staged file `guard` holds over `path`; on failure the guard
/// stays armed and removes it.
fn put_in_place(mut guard: RemoveOnDrop, path: &Path) -> io::Result<()> {
    if let Some(temp) = guard.0.take()
        && let Err(e) = fs::rename(&temp, path)
    {
        guard.0 = Some(temp);
        return Err(e);
    }
    Ok(())
}

/// `parts` written to a new temporary file beside `path` (its folder made
/// when missing), flushed when `durable`: the file, removed when the guard
/// is dropped armed.
fn stage(path: &Path, parts: &[&[u8]], durable: bool) -> io::Result<RemoveOnDrop> {
    let dir = parent_dir(path);
    let (temp_path, mut file) = match create_temp_beside(&dir, path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(&dir)?;
            create_temp_beside(&dir, path)?
        }
        other => other?,
    };
    let guard = RemoveOnDrop(Some(temp_path));
    for bytes in parts {
        file.write_all(bytes)?;
    }
    if durable {
        file.sync_all()?;
    }
    Ok(guard)
}

/// Opens a new, uniquely named temporary file in `dir` for a final `target`.
fn create_temp_beside(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    let stem = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned());
    let mut last_err = None;
    for _ in 0..16 {
        let candidate = dir.join(format!(".{stem}.tmp-{}", unique_suffix()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("cannot create a temporary file")))
}

/// A suffix unique within this machine for temp names: pid plus randomness.
pub fn unique_suffix() -> String {
    format!("{}-{:016x}", std::process::id(), fastrand::u64(..))
}

/// Renames `from` to `to`, making `to`'s folder first when it is missing
/// (the cache's `downloads/` is made by the first download kept there).
pub fn rename_creating_parent(from: &Path, to: &Path) -> io::Result<()> {
    match fs::rename(from, to) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && !to.parent().is_some_and(Path::exists) => {
            if let Some(dir) = to.parent() {
                fs::create_dir_all(dir)?;
            }
            fs::rename(from, to)
        }
        other => other,
    }
}

/// The folder holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Flushes a folder's entry table so a rename in it is durable. A no-op
/// where folders cannot be synced (Windows).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Deletes a temporary file when dropped unless disarmed (set to `None`), so
/// every early return leaves nothing behind.
pub struct RemoveOnDrop(pub Option<PathBuf>);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<std::ffi::OsString> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect()
    }

    #[test]
    fn replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("skills.toml");
        fs::write(&target, "old").unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        write_replacing(&target, b"newer").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "newer");
        assert_eq!(
            names(dir.path()),
            vec![std::ffi::OsString::from("skills.toml")]
        );
    }

    #[test]
    fn several_files_are_replaced_in_order_and_a_failure_names_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let (toml, lock) = (
            dir.path().join("skills.toml"),
            dir.path().join("skills.lock"),
        );
        fs::write(&toml, "old").unwrap();
        write_atomic_all(&[(&toml, b"toml"), (&lock, b"lock")]).unwrap();
        assert_eq!(fs::read_to_string(&toml).unwrap(), "toml");
        assert_eq!(fs::read_to_string(&lock).unwrap(), "lock");
        // A folder where the second file goes: it cannot be renamed over.
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        let (at, _) = write_atomic_all(&[(&toml, b"new"), (&folder, b"x")]).unwrap_err();
        assert_eq!(at, 1);
        assert_eq!(fs::read_to_string(&toml).unwrap(), "new");
        assert!(folder.is_dir());
        let mut left = names(dir.path());
        left.sort();
        assert_eq!(left, ["folder", "skills.lock", "skills.toml"]);
    }

    /// The files are staged side by side: one that cannot be staged (its
    /// folder is a file) replaces nothing, the others' temporary files
    /// included, and is named by its place in the list.
    #[test]
    fn a_file_that_cannot_be_staged_replaces_none() {
        let dir = tempfile::tempdir().unwrap();
        let toml = dir.path().join("skills.toml");
        fs::write(&toml, "old").unwrap();
        let not_a_folder = dir.path().join("plain");
        fs::write(&not_a_folder, "x").unwrap();
        let inside = not_a_folder.join("skills.lock");
        // Honest path first: the same call with a writable second file.
        let lock = dir.path().join("skills.lock");
        write_atomic_all(&[(&toml, b"one"), (&lock, b"two")]).unwrap();
        assert_eq!(fs::read_to_string(&toml).unwrap(), "one");
        let (at, _) = write_atomic_all(&[(&toml, b"new"), (&inside, b"x")]).unwrap_err();
        assert_eq!(at, 1);
        assert_eq!(fs::read_to_string(&toml).unwrap(), "one");
        let mut left = names(dir.path());
        left.sort();
        assert_eq!(left, ["plain", "skills.lock", "skills.toml"]);
    }

    #[test]
    fn creates_a_missing_folder() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a/b/record.json");
        write_replacing(&target, b"{}").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"{}");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a folder: the rename fails after the temp file was written.
        let target = dir.path().join("occupied");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), "x").unwrap();
        assert!(write_atomic(&target, b"new").is_err());
        assert_eq!(names(dir.path()).len(), 1, "temp file left behind");
    }
}
