//! What each verified artifact unpacked to: `<cache>/state/unpacked/sha256-<artifact>`
//! holds the tree digest the store computed when it imported those bytes.
//!
//! This is the artifact → tree link of a lock entry's chain. Without it a
//! lock could keep an artifact digest the signed index lists and point its
//! `tree` (and `approved`) at any other entry already in the store. When no
//! record exists the artifact is unpacked again (from the download cache or
//! the network) and must hash to the lock's tree.

use std::path::{Path, PathBuf};

use crate::digest::Digest;

#[derive(Debug, Clone)]
pub struct Unpacked {
    dir: PathBuf,
}

impl Unpacked {
    pub fn in_cache(cache_root: &Path) -> Self {
        Unpacked {
            dir: cache_root
                .join(crate::cache::layout::STATE)
                .join("unpacked"),
        }
    }

    /// Remembers that `artifact` unpacked to `tree` (written once).
    pub fn record(&self, artifact: &Digest, tree: &Digest) -> std::io::Result<()> {
        let path = self.dir.join(artifact.file_name());
        if self.tree_of(artifact) == Some(*tree) {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)?;
        crate::fs::write_atomic(&path, tree.to_string().as_bytes())
    }

    /// The key a git checkout is recorded under: its repository, commit and
    /// folder (a commit pins content as an artifact digest does).
    pub fn git_key(url: &str, commit: &str, subpath: Option<&str>) -> Digest {
        Digest::of_bytes(format!("git\n{url}\n{commit}\n{}", subpath.unwrap_or("")).as_bytes())
    }

    /// The tree `artifact` unpacked to, when recorded.
    pub fn tree_of(&self, artifact: &Digest) -> Option<Digest> {
        let text = std::fs::read_to_string(self.dir.join(artifact.file_name())).ok()?;
        text.trim().parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let u = Unpacked::in_cache(tmp.path());
        let (a, t) = (Digest::of_bytes(b"a"), Digest::of_bytes(b"t"));
        assert_eq!(u.tree_of(&a), None);
        u.record(&a, &t).unwrap();
        assert_eq!(u.tree_of(&a), Some(t));
    }
}
