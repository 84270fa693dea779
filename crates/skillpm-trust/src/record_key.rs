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
//!
//! A CI runner starts with a fresh state folder but may restore the cache:
//! there the key comes from the environment variable [`ENV_VAR`]
//! (`SKILLPM_RECORD_KEY`, 64 hex digits, e.g. `openssl rand -hex 32`), a
//! secret the CI keeps (README, "CI"). It takes the place of the file; a
//! cache restored under another key reads as holding no records.

use std::io;
use std::path::Path;
use std::sync::OnceLock;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

const KEY_FILE: &str = "record-key";
const KEY_LEN: usize = 32;

/// The flush of a key this process made, while it runs ([`RecordKey::settle`]).
static FLUSHING: std::sync::Mutex<Option<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(None);

/// The environment variable that carries the record key on a CI runner.
pub const ENV_VAR: &str = crate::cache::RECORD_KEY_VAR;

/// What a message says where a missing or foreign record may be the cause
/// (a CI runner that restored a cache without its key).
pub const CI_HINT: &str = "on a CI runner with a restored cache, set SKILLPM_RECORD_KEY to the secret the cache's records were made with (README, \"CI\")";

/// `SKILLPM_RECORD_KEY` is set but holds no key (exit 2).
#[derive(Debug, thiserror::Error)]
#[error(
    "{ENV_VAR} is set but is not a record key: it must be 64 hex digits (32 random bytes, e.g. from `openssl rand -hex 32`), kept in your CI's secrets; unset it to use the key in your state folder"
)]
pub struct BadRecordKey;

crate::classified!(BadRecordKey => Usage);

/// The user's record key.
#[derive(Clone)]
pub struct RecordKey([u8; KEY_LEN]);

impl std::fmt::Debug for RecordKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecordKey(..)")
    }
}

impl RecordKey {
    /// The user's key: [`ENV_VAR`] when set, else the state folder's, made
    /// on first use; `None` when neither is usable (records are then never
    /// trusted; a malformed [`ENV_VAR`] is refused by [`RecordKey::check_env`]).
    pub fn user() -> Option<&'static RecordKey> {
        static KEY: OnceLock<Option<RecordKey>> = OnceLock::new();
        KEY.get_or_init(|| RecordKey::env_or_state(|dir| RecordKey::load_or_begin(dir).ok()))
            .as_ref()
    }

    /// The user's key only when it exists already ([`ENV_VAR`], else the
    /// state folder's file): never made, so work begun before a command has
    /// read its input (a no-op install's sealed-set check, `store`) writes
    /// nothing.
    pub fn existing() -> Option<RecordKey> {
        RecordKey::env_or_state(|dir| read_key(&dir.join(KEY_FILE)).ok().flatten())
    }

    /// [`ENV_VAR`]'s key when it is set, else what `in_state` finds in the
    /// state folder; `None` for a malformed [`ENV_VAR`].
    fn env_or_state(in_state: impl FnOnce(&Path) -> Option<RecordKey>) -> Option<RecordKey> {
        match RecordKey::from_env() {
            Ok(Some(key)) => Some(key),
            Ok(None) => in_state(&crate::cache::state_root()?),
            Err(BadRecordKey) => None,
        }
    }

    /// Refuses a set but malformed [`ENV_VAR`] (every command checks it
    /// first, so a typo in a CI secret fails loudly instead of every record
    /// reading as absent).
    pub fn check_env() -> Result<(), BadRecordKey> {
        RecordKey::from_env().map(|_| ())
    }

    /// The key [`ENV_VAR`] holds (64 hex digits), `None` when unset or empty.
    pub fn from_env() -> Result<Option<RecordKey>, BadRecordKey> {
        let Some(text) = crate::cache::record_key_var() else {
            return Ok(None);
        };
        let text = text.to_str().ok_or(BadRecordKey)?;
        RecordKey::from_hex(text.trim()).map(Some)
    }

    /// A key written as 64 hex digits.
    pub fn from_hex(text: &str) -> Result<RecordKey, BadRecordKey> {
        let bytes = hex::decode(text).map_err(|_| BadRecordKey)?;
        Ok(RecordKey(bytes.try_into().map_err(|_| BadRecordKey)?))
    }

    /// A unit test's key in `dir`, made for it and kept for the process
    /// (records hold `&'static` keys). For the unit tests of the crates
    /// above too (feature `test-support`, a dev-dependency's only).
    #[cfg(any(test, feature = "test-support"))]
    pub fn leaked_in(dir: &Path) -> &'static RecordKey {
        Box::leak(Box::new(Self::load_or_create(dir).expect("a test key")))
    }

    /// The key in `dir`, created (exclusively: of two processes making one,
    /// both end up with the first's) when missing.
    pub fn load_or_create(dir: &Path) -> io::Result<RecordKey> {
        let NewKey {
            path, temp, file, ..
        } = match Self::found_or_new(dir)? {
            Ok(key) => return Ok(key),
            Err(new) => new,
        };
        file.sync_all()?;
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

    /// [`RecordKey::load_or_create`] for this process's own use: a new key
    /// is used at once and made durable (flushed, then linked into place)
    /// on a thread of its own while the run goes on; [`RecordKey::settle`]
    /// waits for it before the process ends. A first run on a machine busy
    /// writing waited up to 30 ms for that flush (docs/performance.md). Of
    /// two processes making a key at once the first to link wins as before;
    /// the other's records read as absent later (its work is done again).
    fn load_or_begin(dir: &Path) -> io::Result<RecordKey> {
        let NewKey {
            path,
            bytes,
            temp,
            file,
        } = match Self::found_or_new(dir)? {
            Ok(key) => return Ok(key),
            Err(new) => new,
        };
        let flush = std::thread::spawn(move || {
            // Durable before it has its name, so a crash never leaves a
            // `record-key` holding anything but the key.
            if file.sync_all().is_ok() {
                let _ = std::fs::hard_link(&temp, &path);
            }
            let _ = std::fs::remove_file(&temp);
        });
        if let Ok(mut pending) = FLUSHING.lock() {
            *pending = Some(flush);
        }
        Ok(RecordKey(bytes))
    }

    /// The key already in `dir` (`Ok`), or a new random one written (not
    /// yet flushed or named) to a private temporary file there (`Err`).
    fn found_or_new(dir: &Path) -> io::Result<Result<RecordKey, NewKey>> {
        let path = dir.join(KEY_FILE);
        if let Some(key) = read_key(&path)? {
            return Ok(Ok(key));
        }
        std::fs::create_dir_all(dir)?;
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
        let temp = dir.join(format!(".{KEY_FILE}.{}", crate::fs::unique_suffix()));
        let file = write_private(&temp, &bytes)?;
        Ok(Err(NewKey {
            path,
            bytes,
            temp,
            file,
        }))
    }

    /// Waits until a key this process made is durable and in place (call
    /// before the process ends; nothing to wait for otherwise).
    pub fn settle() {
        let pending = FLUSHING.lock().ok().and_then(|mut p| p.take());
        if let Some(flush) = pending {
            let _ = flush.join();
        }
    }

    /// The MAC of `parts` (each length-prefixed, so no two lists collide).
    pub fn mac(&self, parts: &[&[u8]]) -> [u8; 32] {
        self.hmac(parts).finalize().into_bytes().into()
    }

    /// [`RecordKey::mac`] as hex, the form records keep it in.
    pub fn mac_hex(&self, parts: &[&[u8]]) -> String {
        hex::encode(self.mac(parts))
    }

    /// Whether `tag_hex` (hex) is the MAC of `parts` (constant time).
    pub fn verify_hex(&self, parts: &[&[u8]], tag_hex: &str) -> bool {
        hex::decode(tag_hex.trim()).is_ok_and(|tag| self.verify(parts, &tag))
    }

    /// Whether `tag` is the MAC of `parts` (constant time).
    pub fn verify(&self, parts: &[&[u8]], tag: &[u8]) -> bool {
        self.hmac(parts).verify_slice(tag).is_ok()
    }

    /// The HMAC state over `parts`, each length-prefixed.
    fn hmac(&self, parts: &[&[u8]]) -> HmacSha256 {
        // HMAC takes a key of any length: this cannot fail.
        let mut mac = match HmacSha256::new_from_slice(&self.0) {
            Ok(m) => m,
            Err(_) => unreachable!("HMAC accepts any key length"),
        };
        for part in parts {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac
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

/// `bytes` in a new file at `path` only the user may read (not flushed).
fn write_private(path: &Path, bytes: &[u8]) -> io::Result<std::fs::File> {
    use std::io::Write;
    let mut file = crate::fs::create_new(path, 0o600)?;
    file.write_all(bytes)?;
    Ok(file)
}

/// A key [`RecordKey::found_or_new`] made: written to `temp`, to be linked to `path`.
struct NewKey {
    path: std::path::PathBuf,
    bytes: [u8; KEY_LEN],
    temp: std::path::PathBuf,
    file: std::fs::File,
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
        // The CI form: 64 hex digits make the same key; anything else is refused.
        let same = RecordKey::from_hex(&hex::encode(a.0)).unwrap();
        assert!(same.verify_hex(&[b"ab", b"c"], &a.mac_hex(&[b"ab", b"c"])));
        for bad in ["", "abc", &"g".repeat(64), &"ab".repeat(33)] {
            assert!(RecordKey::from_hex(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_key_flushed_in_the_background_is_in_place_once_settled() {
        let dir = tempfile::tempdir().unwrap();
        let key = RecordKey::load_or_begin(dir.path()).unwrap();
        RecordKey::settle();
        // The key used at once is the one later runs read, and nothing else is left.
        assert_eq!(RecordKey::load_or_create(dir.path()).unwrap().0, key.0);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [KEY_FILE]);
        // An existing key is read, not replaced, and nothing waits.
        assert_eq!(RecordKey::load_or_begin(dir.path()).unwrap().0, key.0);
        RecordKey::settle();
    }
}
