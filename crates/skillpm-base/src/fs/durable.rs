//! Making many writes durable with one call instead of one per file, or
//! with none at all when the boot they were made in can be named.
//!
//! **The boot epoch.** A SIGKILL never loses what a process wrote to the page
//! cache; only a crash of the whole machine (power loss, kernel panic) does,
//! and after one the machine boots again with a new boot id
//! (`/proc/sys/kernel/random/boot_id` on Linux). So a record that says "these
//! bytes were complete in boot B" needs no flush at all: read in boot B it is
//! true, read in any later boot it is not trusted and the bytes are checked
//! again (docs/design.md#store). [`boot_epoch`] names the current boot where
//! the system can; where it cannot, the writers fall back to [`Batch`].
//!
//! An install writes hundreds of small files. Flushing each (fsync) makes
//! the cost proportional to the number of files, and on a machine with
//! other unsynced writes pending (a CI runner just after a checkout) each
//! flush waits for them too. Instead the writers leave their files in the
//! page cache, and once the batch is complete the whole file system is
//! flushed with one `syncfs(2)` (Linux); where that call does not exist,
//! each recorded file is fsynced (the portable fallback). Only after that
//! may a record that *claims* durability (the store's completeness marker)
//! be written.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The id of the current boot: the same for every process until the machine
/// restarts, new after every restart. `None` where the system does not say
/// (then durability needs a flush).
pub fn boot_epoch() -> Option<&'static str> {
    static EPOCH: OnceLock<Option<String>> = OnceLock::new();
    EPOCH.get_or_init(read_boot_epoch).as_deref()
}

#[cfg(target_os = "linux")]
fn read_boot_epoch() -> Option<String> {
    let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let id = id.trim();
    // A UUID; anything else (an odd kernel, a sandbox) is not trusted.
    let valid = id.len() == 36 && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    valid.then(|| id.to_owned())
}

#[cfg(not(target_os = "linux"))]
fn read_boot_epoch() -> Option<String> {
    None
}

/// Files written since the last flush, grouped by nothing: one `syncfs` per
/// file system covers them all on Linux.
#[derive(Debug, Default)]
pub struct Batch {
    /// A path on each file system touched (Linux), or every path (elsewhere).
    paths: Vec<PathBuf>,
    /// The device of each of `paths` (Linux).
    devices: Vec<u64>,
}

impl Batch {
    pub fn new() -> Self {
        Batch::default()
    }

    /// Records a file or folder whose content must be durable at [`Batch::flush`].
    pub fn add(&mut self, path: &Path) {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::MetadataExt;
            if let Ok(meta) = std::fs::metadata(path) {
                if self.devices.contains(&meta.dev()) {
                    return;
                }
                self.devices.push(meta.dev());
            }
        }
        self.paths.push(path.to_owned());
    }

    /// Flushes everything recorded: one `syncfs` per file system on Linux,
    /// an fsync per path elsewhere.
    pub fn flush(&mut self) -> io::Result<()> {
        for path in &self.paths {
            flush_path(path)?;
        }
        self.paths.clear();
        self.devices.clear();
        Ok(())
    }
}

#[cfg(target_os = "linux")]
fn flush_path(path: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let file = File::open(path)?;
    // SAFETY: syncfs takes an open file descriptor, which `file` owns for
    // the duration of the call; it reads no memory of ours.
    if unsafe { libc::syncfs(file.as_raw_fd()) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn flush_path(path: &Path) -> io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return flush_tree(path);
    }
    File::open(path)?.sync_all()
}

#[cfg(not(target_os = "linux"))]
fn flush_tree(dir: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            flush_tree(&entry.path())?;
        } else if entry.file_type()?.is_file() {
            File::open(entry.path())?.sync_all()?;
        }
    }
    super::sync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_boot_epoch_is_stable_within_a_boot() {
        let epoch = boot_epoch().expect("Linux names its boot");
        assert_eq!(epoch.len(), 36);
        assert_eq!(read_boot_epoch().as_deref(), Some(epoch));
    }

    #[test]
    fn one_flush_per_file_system() {
        let dir = tempfile::tempdir().unwrap();
        let mut batch = Batch::new();
        for i in 0..3 {
            let path = dir.path().join(format!("f{i}"));
            std::fs::write(&path, "x").unwrap();
            batch.add(&path);
        }
        #[cfg(target_os = "linux")]
        assert_eq!(batch.paths.len(), 1);
        batch.flush().unwrap();
        assert!(batch.paths.is_empty());
    }
}
