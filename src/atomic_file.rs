//! Whole-file writes that are either fully done or not done at all.
//!
//! Every file skillpm rewrites in place (skills.toml, cached index bodies,
//! rollback state) goes through here: the bytes land in a temporary file in the
//! same folder, are flushed to disk, and only then renamed over the target, so
//! a crash or a kill at any instant leaves the old file or the new one, never
//! a truncated mix. The folder is synced too, so the rename itself survives a
//! power loss on file systems that need it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` atomically. The parent folder must exist.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (temp_path, mut file) = create_temp_beside(dir, path)?;
    let mut guard = RemoveOnDrop(Some(temp_path.clone()));
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temp_path, path)?;
    guard.0 = None;
    sync_dir(dir);
    Ok(())
}

/// Opens a new, uniquely named temporary file in `dir` for a final `target`.
fn create_temp_beside(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    let stem = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned());
    let mut last_err = None;
    for _ in 0..16 {
        let name = format!(
            ".{stem}.tmp-{}-{:08x}",
            std::process::id(),
            fastrand::u32(..)
        );
        let candidate = dir.join(name);
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

/// Flushes a folder's entry table so a rename in it is durable. Best effort:
/// not every platform can open a folder for syncing.
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
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

    #[test]
    fn replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("skills.toml");
        fs::write(&target, "old").unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("skills.toml")]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a folder: the rename fails after the temp file was written.
        let target = dir.path().join("occupied");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), "x").unwrap();
        assert!(write_atomic(&target, b"new").is_err());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "temp file left behind: {names:?}");
    }
}
