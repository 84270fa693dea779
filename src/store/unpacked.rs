//! Records of work this machine did, kept in the cache and authenticated
//! with the user's [`RecordKey`] (the cache is content, not authority:
//! docs/threat-model.md).
//!
//! - `state/unpacked/sha256-<artifact>`: the tree digest the store computed
//!   when it imported those artifact bytes (or checked out a git commit's
//!   folder, keyed by [`Unpacked::git_key`]). This is the artifact → tree
//!   link of a lock entry's chain. Without it a lock could keep an artifact
//!   digest the signed index lists and point its `tree` (and `approved`) at
//!   any other entry already in the store. When no valid record exists the
//!   artifact is unpacked again and must hash to the lock's tree.
//! - `state/proofs/<kind>/sha256-<key>`: a proof made online that an offline
//!   run may reuse (a git commit found on its declared ref, an MCP tree read
//!   from its declared server and URI).
//!
//! Each record holds its value and an HMAC over (kind, key, value); one
//! that does not verify (written by someone without the key) reads as
//! absent.

use std::path::{Path, PathBuf};

use crate::digest::Digest;
use crate::trust::RecordKey;

/// In `state/`: one record per imported artifact (or git checkout).
pub(super) const UNPACKED: &str = "unpacked";

#[derive(Debug, Clone)]
pub struct Unpacked {
    records: Records,
}

impl Unpacked {
    pub fn in_cache(cache_root: &Path) -> Self {
        Unpacked {
            records: Records::new(
                cache_root.join(crate::cache::layout::STATE).join(UNPACKED),
                "unpacked",
                RecordKey::user(),
            ),
        }
    }

    /// Remembers that `artifact` unpacked to `tree`. Not flushed (one record
    /// per skill; an fsync each made flushing proportional to the install):
    /// a record lost or torn by a crash reads as absent, and the artifact is
    /// then unpacked again.
    pub fn record(&self, artifact: &Digest, tree: &Digest) -> std::io::Result<()> {
        if self.tree_of(artifact) == Some(*tree) {
            return Ok(());
        }
        self.records.put(&artifact.file_name(), &tree.to_string())
    }

    /// The key a git checkout is recorded under: its repository, commit and
    /// folder (a commit pins content as an artifact digest does).
    pub fn git_key(url: &str, commit: &str, subpath: Option<&str>) -> Digest {
        Digest::of_bytes(format!("git\n{url}\n{commit}\n{}", subpath.unwrap_or("")).as_bytes())
    }

    /// The key a v0.1 file list is recorded under: the URLs of its files
    /// (a listing without per-file digests pins nothing else).
    pub fn files_key<'u>(urls: impl IntoIterator<Item = &'u url::Url>) -> Digest {
        let mut text = String::from("files\n");
        for u in urls {
            text.push_str(u.as_str());
            text.push('\n');
        }
        Digest::of_bytes(text.as_bytes())
    }

    /// The tree `artifact` unpacked to, when recorded by this user.
    pub fn tree_of(&self, artifact: &Digest) -> Option<Digest> {
        self.records.get(&artifact.file_name())?.parse().ok()
    }
}

/// Authenticated records of one `kind` in one folder.
#[derive(Debug, Clone)]
pub struct Records {
    dir: PathBuf,
    kind: &'static str,
    key: Option<&'static RecordKey>,
}

impl Records {
    pub fn new(dir: PathBuf, kind: &'static str, key: Option<&'static RecordKey>) -> Records {
        Records { dir, kind, key }
    }

    /// `state/proofs/<kind>` of the cache, keyed by the user's key.
    pub fn proofs(cache_root: &Path, kind: &'static str) -> Records {
        Records::new(
            cache_root
                .join(crate::cache::layout::STATE)
                .join("proofs")
                .join(kind),
            kind,
            RecordKey::user(),
        )
    }

    /// The file of `key`: itself when it is a digest's file name, else the
    /// digest of the key.
    fn path(&self, key: &str) -> PathBuf {
        match Digest::from_file_name(key) {
            Some(_) => self.dir.join(key),
            None => self.dir.join(Digest::of_bytes(key.as_bytes()).file_name()),
        }
    }

    /// Writes `value` for `key` (nothing without a key: such records could
    /// not be told from forged ones).
    pub fn put(&self, key: &str, value: &str) -> std::io::Result<()> {
        let Some(k) = self.key else {
            return Ok(());
        };
        let tag = k.mac_hex(&[self.kind.as_bytes(), key.as_bytes(), value.as_bytes()]);
        let text = format!("{value}\nmac {tag}\n");
        crate::fs::write_replacing(&self.path(key), text.as_bytes())
    }

    /// The value recorded for `key`, when its MAC verifies.
    pub fn get(&self, key: &str) -> Option<String> {
        let k = self.key?;
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let (value, rest) = text.split_once('\n')?;
        let tag = rest.strip_prefix("mac ")?;
        k.verify_hex(
            &[self.kind.as_bytes(), key.as_bytes(), value.as_bytes()],
            tag,
        )
        .then(|| value.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_forgeries_read_as_absent() {
        let tmp = tempfile::tempdir().unwrap();
        let key: &'static RecordKey = Box::leak(Box::new(
            RecordKey::load_or_create(&tmp.path().join("key")).unwrap(),
        ));
        let u = Unpacked {
            records: Records::new(tmp.path().join("u"), "unpacked", Some(key)),
        };
        let (a, t, evil) = (
            Digest::of_bytes(b"a"),
            Digest::of_bytes(b"t"),
            Digest::of_bytes(b"evil"),
        );
        assert_eq!(u.tree_of(&a), None);
        u.record(&a, &t).unwrap();
        assert_eq!(u.tree_of(&a), Some(t));
        // A cache writer without the key rewrites the record.
        let path = tmp.path().join("u").join(a.file_name());
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(&t.to_string(), &evil.to_string())).unwrap();
        assert_eq!(u.tree_of(&a), None);
        std::fs::write(&path, format!("{evil}\n")).unwrap();
        assert_eq!(u.tree_of(&a), None);
    }
}
