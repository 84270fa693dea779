//! Index snapshots in the cache, content-addressed (TUF's consistent
//! snapshots, kept client side): `<cache>/snapshots/sha256-<hex>` holds the
//! exact bytes of an index whose sha256 is `<hex>`, and
//! `sha256-<hex>.minisig` the signature that came with it (signed sources).
//!
//! A snapshot is written once (temp file + rename) and never modified, so a
//! lock naming a digest can be proven offline for as long as the snapshot is
//! kept. Reading re-hashes the bytes: a file whose content does not match its
//! name is treated as absent, never trusted.

use std::path::{Path, PathBuf};

use crate::digest::Digest;

/// One snapshot read back: bytes that hash to its name, and its signature.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub digest: Digest,
    pub bytes: Vec<u8>,
    /// The `.minisig` text kept beside it, when the source was signed.
    pub signature: Option<String>,
}

/// The `<cache>/snapshots/` folder.
#[derive(Debug, Clone)]
pub struct Snapshots {
    dir: PathBuf,
}

impl Snapshots {
    /// Snapshots under the cache root `cache_root`.
    pub fn in_cache(cache_root: &Path) -> Self {
        Snapshots {
            dir: cache_root.join(crate::cache::layout::SNAPSHOTS),
        }
    }

    fn path(&self, digest: &Digest) -> PathBuf {
        self.dir.join(digest.file_name())
    }

    fn signature_path(&self, digest: &Digest) -> PathBuf {
        self.dir.join(format!("{}.minisig", digest.file_name()))
    }

    /// The file of snapshot `digest`, to read it as a stream; the reader
    /// must hash what it reads and compare it with `digest`.
    pub fn open(&self, digest: &Digest) -> std::io::Result<std::fs::File> {
        std::fs::File::open(self.path(digest))
    }

    /// Removes a file kept under `digest` whose bytes turned out not to
    /// hash to it, so the next [`Snapshots::put`] writes the real ones.
    pub fn discard(&self, digest: &Digest) {
        let _ = std::fs::remove_file(self.path(digest));
    }

    /// Keeps `bytes` (and `signature`) unless a snapshot of that digest is
    /// already there. Returns the digest. Verify before calling: the folder
    /// must only hold indexes that passed every check of their source.
    pub fn put(&self, bytes: &[u8], signature: Option<&str>) -> std::io::Result<Digest> {
        let digest = Digest::of_bytes(bytes);
        std::fs::create_dir_all(&self.dir)?;
        let signature = signature.map(|s| (self.signature_path(&digest), s.as_bytes()));
        for (path, bytes) in std::iter::once((self.path(&digest), bytes)).chain(signature) {
            if !path.is_file() {
                crate::fs::write_atomic(&path, bytes)?;
            }
        }
        Ok(digest)
    }

    /// The snapshot named `digest`, if one is kept and its bytes still hash
    /// to that name.
    pub fn get(&self, digest: &Digest) -> Option<Snapshot> {
        let bytes = std::fs::read(self.path(digest)).ok()?;
        if Digest::of_bytes(&bytes) != *digest {
            return None;
        }
        let signature = std::fs::read_to_string(self.signature_path(digest)).ok();
        Some(Snapshot {
            digest: *digest,
            bytes,
            signature,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_once_read_back_and_refused_when_tampered() {
        let tmp = tempfile::tempdir().unwrap();
        let snaps = Snapshots::in_cache(tmp.path());
        let d = snaps.put(b"{\"skills\":[]}", Some("sig one")).unwrap();
        assert_eq!(d, Digest::of_bytes(b"{\"skills\":[]}"));
        // A second put never rewrites what is there.
        snaps.put(b"{\"skills\":[]}", Some("sig two")).unwrap();
        let got = snaps.get(&d).unwrap();
        assert_eq!(got.bytes, b"{\"skills\":[]}");
        assert_eq!(got.signature.as_deref(), Some("sig one"));
        assert!(snaps.path(&d).is_file());
        // Content that no longer matches its name is not a snapshot.
        std::fs::write(snaps.path(&d), b"{\"skills\":[1]}").unwrap();
        assert!(snaps.get(&d).is_none());
        assert!(snaps.get(&Digest::of_bytes(b"other")).is_none());
    }
}
