//! The one home of how skillpm writes to the file system (docs/design.md#store).
//!
//! Every module that replaces a file, syncs a folder, takes a file lock or
//! needs a temporary file or folder that a killed process must not leave
//! behind comes here, so each rule is written once:
//!
//! - [`atomic`]: whole-file replacement (temp file + rename), durable
//!   ([`write_atomic`]) or merely atomic ([`write_replacing`]), and the
//!   folder sync that makes a rename survive a power loss;
//! - [`lock`]: exclusive advisory locks on files their holders may delete;
//! - [`temp`]: temporary files and folders owned by a live process through a
//!   lock taken before their name exists, and the sweep that removes those of
//!   dead processes without ever touching a live one's;
//! - [`tree`]: removing read-only trees, sizing them, sealing folders;
//! - [`durable`]: one flush of a whole file system instead of one per file;
//! - [`parallel`]: file-bound work (unpacking, hashing, placing) spread over
//!   the cores;
//! - [`spread`]: a folder whose subfolders the file system spreads over the
//!   disk (the store: each entry away from recently freed inodes);
//! - [`read_bounded`]: reading a whole file someone else wrote, never more
//!   than a limit (no stat-then-read: the limit is on the bytes read);
//! - [`create_new`]: a new file with its permissions from the start.

pub mod atomic;
pub mod durable;
pub mod lock;
pub mod parallel;
pub mod spread;
pub mod temp;
pub mod tree;

pub use atomic::{
    parent_dir, rename_creating_parent, settle_behind, sync_dir, unique_suffix, write_atomic,
    write_atomic_all, write_flushed_behind, write_replacing, write_replacing_parts,
};
pub use lock::HeldLock;
pub use temp::{TempDir, TempFile};

use std::io::Read as _;
use std::path::Path;

/// A new file at `path`, open for writing, with the Unix permission bits
/// `mode` from its creation: never over an existing name, links included.
pub fn create_new(path: &Path, mode: u32) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

/// The bytes of `path` when it holds at most `limit` bytes, `Ok(None)` when
/// it holds more (at most `limit + 1` bytes are read either way).
pub fn read_bounded_bytes(path: &Path, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let file = std::fs::File::open(path)?;
    // Room for a typical SKILL.md up front: `take` gives no size hint, and
    // growing from nothing costs a read per doubling.
    let mut bytes = Vec::with_capacity(limit.saturating_add(1).min(8192) as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// [`read_bounded_bytes`] as text: not UTF-8 is an `InvalidData` error.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Option<String>> {
    let Some(bytes) = read_bounded_bytes(path, limit)? else {
        return Ok(None);
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
