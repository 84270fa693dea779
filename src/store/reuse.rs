//! A warm cache: content the store already holds is neither downloaded nor
//! unpacked again (docs/design.md#store).
//!
//! An index entry pins its artifact's digest. When this user's authenticated
//! record (`state/unpacked`, see [`super::unpacked`]) says those bytes
//! unpacked to a tree, and that tree's entry is in the store and still whole
//! (its completeness marker holds, or it hashes right again), the entry is
//! the result of downloading and unpacking the artifact, without doing
//! either. A record written by anyone without the user's key reads as
//! absent, so the cache alone cannot point an artifact at another tree.

use crate::digest::{Digest, HashedTree, hash_tree};

use super::unpacked::Unpacked;
use super::{Store, StoreEntry, refresh_executables};

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
        // An entry without a valid marker is re-hashed here; a bad one is
        // quarantined (then `None`: fetched again).
        if self.verify_entry(&digest).ok()?.is_some() {
            return None;
        }
        let path = self.entry_path(&digest);
        if !path.is_dir() {
            return None;
        }
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
