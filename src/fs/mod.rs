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
//! - [`durable`]: one flush of a whole file system instead of one per file.

pub mod atomic;
pub mod durable;
pub mod lock;
pub mod temp;
pub mod tree;

pub use atomic::{
    RemoveOnDrop, parent_dir, sync_dir, unique_suffix, write_atomic, write_replacing,
};
pub use lock::HeldLock;
pub use temp::{TempDir, TempFile};
