//! The key that authenticates what skillpm records in its cache about work
//! it did itself (which tree an artifact unpacked to, that a git commit was
//! found on its declared ref, which MCP server a tree was read from).
//!
//! The cache is content, not authority (docs/threat-model.md): whoever can
//! write the cache (a CI cache restored from a pull request's workspace) can
//! write any record there. A record therefore carries an HMAC-SHA256 keyed
//! by a secret that lives in the user's *state* folder, never in the cache:
//! `SKILLPM_STATE_DIR`, else the platform state folder
//! (`~/.local/state/skillpm` on Linux), file `record-key` (32 random bytes,
//! mode 0600). A record whose MAC does not verify reads as absent, so the
//! work is done again.

use std::io;
use std::path::Path;
use std::sync::OnceLock;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

const KEY_FILE: &str = "record-key";
const KEY_LEN: usize = 32;

/// The user's record key.
#[derive(Clone)]
pub struct RecordKey([u8; KEY_LEN]);

impl std::fmt::Debug for RecordKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecordKey(..)")
    }
}

impl RecordKey {
    /// The user's key, made on first use; `None` when there is no state
    /// folder or it cannot be written (records are then never trusted).
    pub fn user() -> Option<&'static RecordKey> {
        static KEY: OnceLock<Option<RecordKey>> = OnceLock::new();
        KEY.get_or_init(|| RecordKey::load_or_create(&crate::cache::state_root()?).ok())
            .as_ref()
    }

    /// The key in `dir`, created (exclusively: of two processes making one,
    /// both end up with the first's) when missing.
    pub fn load_or_create(dir: &Path) -> io::Result<RecordKey> {
        let path = dir.join(KEY_FILE);
        if let Some(key) = read_key(&path)? {
            return Ok(key);
        }
        std::fs::create_dir_all(dir)?;
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
        let temp = dir.join(format!(".{KEY_FILE}.{}", crate::fs::unique_suffix()));
        write_private(&temp, &bytes)?;
        // A hard link never replaces: whoever links first wins.
        let linked = std::fs::hard_link(&temp, &path);
        let _ = std::fs::remove_file(&temp);
        match linked {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        read_key(&path)?.ok_or_else(|| io::Error::other("the record key vanished"))
    }

    /// The MAC of `parts` (each length-prefixed, so no two lists collide).
    pub fn mac(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut mac = self.hmac();
        for part in parts {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Whether `tag` is the MAC of `parts` (constant time).
    pub fn verify(&self, parts: &[&[u8]], tag: &[u8]) -> bool {
        let mut mac = self.hmac();
        for part in parts {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac.verify_slice(tag).is_ok()
    }

    fn hmac(&self) -> HmacSha256 {
        // HMAC takes a key of any length: this cannot fail.
        match HmacSha256::new_from_slice(&self.0) {
            Ok(m) => m,
            Err(_) => unreachable!("HMAC accepts any key length"),
        }
    }
}

fn read_key(path: &Path) -> io::Result<Option<RecordKey>> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let key: [u8; KEY_LEN] = bytes.try_into().map_err(|_| {
                io::Error::other(format!("{} is not a skillpm record key", path.display()))
            })?;
            Ok(Some(RecordKey(key)))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_macs_bind_every_part() {
        let dir = tempfile::tempdir().unwrap();
        let a = RecordKey::load_or_create(dir.path()).unwrap();
        let b = RecordKey::load_or_create(dir.path()).unwrap();
        assert_eq!(a.0, b.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "readable by others: {mode:o}");
        }
        let tag = a.mac(&[b"ab", b"c"]);
        assert!(a.verify(&[b"ab", b"c"], &tag));
        assert!(!a.verify(&[b"a", b"bc"], &tag));
        let other = RecordKey::load_or_create(&dir.path().join("other")).unwrap();
        assert!(!other.verify(&[b"ab", b"c"], &tag));
    }
}
