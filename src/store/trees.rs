//! `state/trees/sha256-<hex>.json`: the file list of a tree that left the
//! store (gc, clean, quarantine, a declined add), so `update` can still show
//! what changed against an approved version whose bytes are gone.
//!
//! While an entry is in the store its marker carries the file list
//! (`super::seal`, version 3); the list is copied here only when the entry
//! and its marker go. Records written by earlier versions, one per stored
//! tree, are still read. Either way a list is believed only if it hashes to
//! its name: the cache is content, not authority (docs/threat-model.md).
//!
//! Written atomically but not flushed: a record lost or torn by a crash
//! reads as absent, which costs only the diff it would have shown.

use std::path::{Path, PathBuf};

use crate::digest::{Digest, HashedTree};

fn record_path(state_dir: &Path, digest: &Digest) -> PathBuf {
    state_dir
        .join("trees")
        .join(format!("{}.json", digest.file_name()))
}

/// Keeps `tree`'s file list (idempotent).
pub(crate) fn save(state_dir: &Path, tree: &HashedTree) -> std::io::Result<()> {
    let path = record_path(state_dir, &tree.digest);
    if path.exists() {
        return Ok(());
    }
    let json = serde_json::to_vec(tree).map_err(std::io::Error::other)?;
    crate::fs::write_replacing(&path, &json)
}

/// A kept file list, only if it still hashes to its name.
pub(crate) fn load(state_dir: &Path, digest: &Digest) -> Option<HashedTree> {
    let bytes = std::fs::read(record_path(state_dir, digest)).ok()?;
    let tree: HashedTree = serde_json::from_slice(&bytes).ok()?;
    let rehashed = HashedTree::from_files(tree.files.clone()).digest;
    (rehashed == *digest && tree.digest == *digest).then_some(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_tampered_ones_are_ignored() {
        let state = tempfile::tempdir().unwrap();
        let skill = tempfile::tempdir().unwrap();
        std::fs::write(skill.path().join("SKILL.md"), "# Hello\n").unwrap();
        let tree = crate::digest::hash_tree(skill.path()).unwrap();
        save(state.path(), &tree).unwrap();
        assert_eq!(load(state.path(), &tree.digest), Some(tree.clone()));
        let path = record_path(state.path(), &tree.digest);
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("SKILL.md", "EVIL.md");
        std::fs::write(&path, text).unwrap();
        assert_eq!(load(state.path(), &tree.digest), None);
    }
}
