//! Index snapshots in the cache, content-addressed (TUF's consistent
//! snapshots, kept client side): `<cache>/snapshots/sha256-<hex>` holds the
//! exact bytes of an index whose sha256 is `<hex>`, and
//! `sha256-<hex>.minisig` the signature that came with it (signed sources).
//!
//! A snapshot is written once (temp file + rename) and never modified, so a
//! lock naming a digest can be proven offline for as long as the snapshot is
//! kept. Reading re-hashes the bytes: a file whose content does not match its
//! name is treated as absent, never trusted, and removed (so the next
//! [`Snapshots::put`] writes the real bytes). It is flushed to disk behind
//! the command's back (`fs::write_flushed_behind`): durable before the lock
//! that names it is written, and a power loss before then leaves at worst a
//! file that does not hash to its name.

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
        // The signature is not content-addressed (a torn one would not be
        // told apart from a bad one), so it is written durably, and first.
        let signature_path = self.signature_path(&digest);
        if let Some(signature) = signature
            && !signature_path.is_file()
        {
            crate::fs::write_atomic(&signature_path, signature.as_bytes())?;
        }
        let path = self.path(&digest);
        if !path.is_file() {
            crate::fs::write_flushed_behind(&path, bytes)?;
        }
        Ok(digest)
    }

    /// The snapshot named `digest`, if one is kept and its bytes still hash
    /// to that name.
    pub fn get(&self, digest: &Digest) -> Option<Snapshot> {
        let bytes = std::fs::read(self.path(digest)).ok()?;
        if Digest::of_bytes(&bytes) != *digest {
            self.discard(digest);
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

    /// A snapshot is flushed behind the command (`fs::write_flushed_behind`),
    /// so a power loss may leave a torn file under its name: reading it
    /// removes it, and the next `put` writes the real bytes again.
    #[test]
    fn a_torn_snapshot_is_written_again() {
        let tmp = tempfile::tempdir().unwrap();
        let snaps = Snapshots::in_cache(tmp.path());
        let bytes = b"{\"skills\":[\"one\"]}";
        // The honest path: put, read back.
        let d = snaps.put(bytes, None).unwrap();
        crate::fs::settle_behind();
        assert_eq!(snaps.get(&d).unwrap().bytes, bytes);
        // Torn (the first half only, as after a power loss), then put again.
        std::fs::write(snaps.path(&d), &bytes[..8]).unwrap();
        assert!(snaps.get(&d).is_none());
        snaps.put(bytes, None).unwrap();
        assert_eq!(snaps.get(&d).expect("written again").bytes, bytes);
    }
}
