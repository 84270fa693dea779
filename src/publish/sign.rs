//! minisign keys and index signatures (docs/design.md#trust).
//!
//! Signatures are made with the `minisign` crate (prehashed, the only kind
//! skillpm accepts) and checked with `minisign-verify`, the verifier clients
//! use. The trusted comment is `trust::TrustedComment`, the format the
//! verifier reads, and nothing time-dependent besides.
//!
//! minisign's Ed25519 signatures are hedged with random noise, so signing the
//! same index twice gives two different (equally valid) signatures. To keep a
//! re-publish byte-identical, the publisher keeps the previous signature when
//! it still verifies over the same index bytes with the same trusted comment.
//!
//! Signing a built site's index: the version it gets, the previous
//! signature kept when it still covers the same bytes, and the versioned
//! snapshots every earlier version left.

use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use super::site::{self, PreviousSite};
use super::{BuiltSite, PublishError};
pub use crate::trust::{TrustedComment, format_time, signed_version};

/// The environment variable holding the password of an encrypted secret key.
pub const PASSWORD_ENV: &str = "SKILLPM_KEY_PASSWORD";

/// A secret key loaded for signing, with its public half.
pub struct SigningKey {
    secret: minisign::SecretKey,
    public: minisign::PublicKey,
}

impl SigningKey {
    /// Loads a minisign secret key file (from `skillpm keygen` or `minisign
    /// -G`, with or without `-W`). An encrypted key needs `password`; it is
    /// never prompted for.
    ///
    /// `minisign -G -W` (no password) writes an all-zero checksum where the
    /// `minisign` crate expects the BLAKE2b one, so the crate calls such a key
    /// "corrupted". For an unencrypted key skillpm reads the raw key instead
    /// and proves it whole by signing a probe and verifying it with the
    /// public half, which catches a damaged key just as the checksum would.
    pub fn load(path: &Path, password: Option<&str>) -> Result<Self, PublishError> {
        let text = std::fs::read_to_string(path)
            .map_err(PublishError::io("cannot read the secret key", path))?;
        let key_error = |message: String| PublishError::Key {
            path: path.to_owned(),
            message: format!(
                "{message}; expected a minisign secret key file (made by `skillpm keygen` or `minisign -G`)"
            ),
        };
        let raw = text
            .lines()
            .nth(1)
            .and_then(|line| decode_base64(line.trim()))
            .filter(|raw| raw.len() == SECRET_KEY_BYTES)
            .ok_or_else(|| key_error("no base64 secret key on its second line".into()))?;
        let boxed =
            minisign::SecretKeyBox::from_string(&text).map_err(|e| key_error(e.to_string()))?;
        let secret = if raw[KDF_ALG_AT..KDF_ALG_AT + 2] == [0, 0] {
            match minisign::SecretKey::from_unencrypted_box(boxed) {
                Ok(sk) => sk,
                Err(_) if raw[CHECKSUM_AT..].iter().all(|&b| b == 0) => {
                    minisign::SecretKey::from_bytes(&raw).map_err(|e| key_error(e.to_string()))?
                }
                Err(e) => return Err(key_error(e.to_string())),
            }
        } else {
            let Some(pw) = password else {
                return Err(PublishError::KeyNeedsPassword {
                    path: path.to_owned(),
                });
            };
            minisign::SecretKey::from_box(boxed, Some(pw.to_owned()))
                .map_err(|e| key_error(e.to_string()))?
        };
        let public =
            minisign::PublicKey::from_secret_key(&secret).map_err(|e| key_error(e.to_string()))?;
        let key = SigningKey { secret, public };
        let whole = key
            .sign(b"skillpm key probe", "probe")
            .is_ok_and(|probe| key.signed(b"skillpm key probe", &probe, "probe"));
        if !whole {
            return Err(key_error(
                "the secret and public halves of this key do not belong together (the file is damaged)"
                    .into(),
            ));
        }
        Ok(key)
    }

    /// The key id as minisign prints it: 16 uppercase hex digits.
    pub fn key_id(&self) -> String {
        key_id_of(&self.public)
    }

    /// The public key line (`RW…`) that `skillpm source add --key` takes.
    pub fn public_key(&self) -> String {
        self.public.to_base64()
    }

    /// A prehashed minisign signature of `data`, as the text of a `.minisig` file.
    pub fn sign(&self, data: &[u8], trusted_comment: &str) -> Result<String, PublishError> {
        let untrusted = format!("skillpm index signature, key {}", self.key_id());
        minisign::sign(
            Some(&self.public),
            &self.secret,
            data,
            Some(trusted_comment),
            Some(&untrusted),
        )
        .map(|sig| sig.into_string())
        .map_err(|e| PublishError::Sign(e.to_string()))
    }

    /// Whether `signature` (a `.minisig` text) is a prehashed signature of
    /// `data` by this key carrying exactly `trusted_comment`.
    pub fn signed(&self, data: &[u8], signature: &str, trusted_comment: &str) -> bool {
        let Ok(sig) = minisign::SignatureBox::from_string(signature) else {
            return false;
        };
        let reader = std::io::Cursor::new(data);
        sig.trusted_comment().is_ok_and(|c| c == trusted_comment)
            && minisign::verify(&self.public, &sig, reader, true, false, false).is_ok()
    }
}

/// Layout of a decoded minisign secret key: signature algorithm (2 bytes),
/// KDF algorithm (2), checksum algorithm (2), salt (32), ops and memory
/// limits (8 + 8), key id (8), Ed25519 secret key (64), checksum (32).
const SECRET_KEY_BYTES: usize = 158;
const KDF_ALG_AT: usize = 2;
const CHECKSUM_AT: usize = SECRET_KEY_BYTES - 32;

/// Standard base64 with padding (the alphabet minisign writes).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

fn key_id_of(pk: &minisign::PublicKey) -> String {
    let mut id = [0u8; 8];
    id.copy_from_slice(&pk.keynum()[..8]);
    format!("{:016X}", u64::from_le_bytes(id))
}

/// A freshly generated key pair, as the texts of its two files.
pub struct GeneratedKey {
    /// `<prefix>.key`: a minisign secret key file.
    pub secret_file: String,
    /// `<prefix>.pub`: a minisign public key file.
    pub public_file: String,
    /// The `RW…` line.
    pub public_key: String,
    pub key_id: String,
    pub encrypted: bool,
}

/// Generates a key pair; with `password` the secret key is encrypted the way
/// `minisign -G` does it (scrypt), otherwise it is stored in the clear.
pub fn generate(comment: &str, password: Option<&str>) -> Result<GeneratedKey, PublishError> {
    let failed =
        |e: minisign::PError| PublishError::Sign(format!("cannot generate a key pair: {e}"));
    let pair = match password {
        Some(pw) => minisign::KeyPair::generate_encrypted_keypair(Some(pw.to_owned())),
        None => minisign::KeyPair::generate_unencrypted_keypair(),
    }
    .map_err(failed)?;
    let key_id = key_id_of(&pair.pk);
    let public_key = pair.pk.to_base64();
    let secret_file = pair.sk.to_box(Some(comment)).map_err(failed)?.into_string();
    let public_file =
        format!("untrusted comment: {comment} (minisign public key {key_id})\n{public_key}\n");
    Ok(GeneratedKey {
        secret_file,
        public_file,
        public_key,
        key_id,
        encrypted: password.is_some(),
    })
}

/// How the index was signed (`publish --json`'s `signature`).
#[derive(Debug, Serialize)]
pub struct SignatureReport {
    pub path: String,
    pub key_id: String,
    pub public_key: String,
    pub version: u64,
    pub expires: Option<String>,
    pub reused: bool,
}

/// Signs the v0.2.0 index into the site, choosing the version and keeping
/// the previous signature when it already covers these exact bytes.
///
/// `version` and `expires` are `--version` and `--expires`; `shown` is how
/// `out` is named in `warn`'s note on a first signed version.
pub fn sign_index(
    built: &mut BuiltSite,
    key: &SigningKey,
    (version, expires): (Option<u64>, Option<SystemTime>),
    out: &Path,
    (shown, warn): (&Path, &dyn Fn(String)),
) -> Result<SignatureReport, PublishError> {
    let previous = PreviousSite::read(out);
    let index = built.index_bytes().to_vec();
    let same_index = previous.index.as_deref() == Some(index.as_slice());
    let published = previous.signature.as_deref().and_then(signed_version);
    let version = choose_version(version, published, same_index, out, (shown, warn))?;
    let comment = TrustedComment { version, expires }.render();
    let kept = previous
        .signature
        .clone()
        .filter(|old| same_index && key.signed(&index, old, &comment));
    let reused = kept.is_some();
    let signature = match kept {
        Some(old) => old,
        None => key.sign(&index, &comment)?,
    };
    // Earlier versions' snapshots stay; this version's joins them.
    for (path, bytes) in previous.versioned {
        built.site.insert(path, bytes, false);
    }
    let versioned = site::versioned_index_path(version);
    built.site.insert(
        format!("{versioned}.minisig"),
        signature.clone().into_bytes(),
        false,
    );
    built.site.insert(versioned, index, false);
    built
        .site
        .insert(site::signature_path(), signature.into_bytes(), false);
    Ok(SignatureReport {
        path: site::signature_path(),
        key_id: key.key_id(),
        public_key: key.public_key(),
        version,
        expires: expires.map(format_time),
        reused,
    })
}

/// The version the signature gets: `--version` when it is above the
/// published one (or equal for the same index), else the published one for
/// the same index and the next one for a changed index, 1 at first.
fn choose_version(
    version: Option<u64>,
    published: Option<u64>,
    same_index: bool,
    out: &Path,
    (shown, warn): (&Path, &dyn Fn(String)),
) -> Result<u64, PublishError> {
    match (version, published) {
        (Some(v), Some(p)) if v < p => Err(PublishError::VersionRollback {
            requested: v,
            published: p,
            next: p + 1,
            out: out.to_owned(),
        }),
        (Some(v), Some(p)) if v == p && !same_index => Err(PublishError::VersionReused {
            version: v,
            next: p + 1,
            out: out.to_owned(),
        }),
        (Some(v), _) => Ok(v),
        (None, Some(p)) if same_index => Ok(p),
        (None, Some(p)) => Ok(p + 1),
        (None, None) => {
            warn(format!(
                "{} holds no signed index, so this is version 1; if this registry was published \
                 before, pass --version above the served one, or clients refuse it as a rollback",
                shown.display()
            ));
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_key(dir: &Path, key: &GeneratedKey) -> std::path::PathBuf {
        let path = dir.join("k.key");
        std::fs::write(&path, &key.secret_file).unwrap();
        path
    }

    #[test]
    fn signatures_verify_with_minisign_verify_and_carry_the_comment() {
        let tmp = tempfile::tempdir().unwrap();
        let generated = generate("test key", None).unwrap();
        let key = SigningKey::load(&write_key(tmp.path(), &generated), None).unwrap();
        assert_eq!(key.public_key(), generated.public_key);
        assert_eq!(key.key_id(), generated.key_id);

        let comment = TrustedComment {
            version: 7,
            expires: Some(humantime::parse_rfc3339("2099-01-01T00:00:00Z").unwrap()),
        }
        .render();
        assert_eq!(comment, "version=7 expires=2099-01-01T00:00:00Z");
        let sig = key.sign(b"index bytes", &comment).unwrap();
        assert!(key.signed(b"index bytes", &sig, &comment));
        assert!(!key.signed(b"other bytes", &sig, &comment));
        assert!(!key.signed(b"index bytes", &sig, "version=8"));
        assert_eq!(signed_version(&sig), Some(7));

        let pk = minisign_verify::PublicKey::from_base64(&generated.public_key).unwrap();
        let decoded = minisign_verify::Signature::decode(&sig).unwrap();
        pk.verify(b"index bytes", &decoded, false).unwrap();
    }

    #[test]
    fn encrypted_keys_need_their_password() {
        let tmp = tempfile::tempdir().unwrap();
        let generated = generate("locked", Some("correct horse")).unwrap();
        assert!(generated.encrypted);
        let path = write_key(tmp.path(), &generated);
        let err = SigningKey::load(&path, None).err().unwrap();
        assert!(
            matches!(err, PublishError::KeyNeedsPassword { .. }),
            "{err}"
        );
        let err = SigningKey::load(&path, Some("wrong")).err().unwrap();
        assert!(err.to_string().contains("Wrong password"), "{err}");
        let key = SigningKey::load(&path, Some("correct horse")).unwrap();
        assert_eq!(key.public_key(), generated.public_key);
    }

    fn encode_base64(bytes: &[u8]) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    /// The exact file `minisign -G -W` (0.11) writes: no KDF, zero salt and
    /// limits, and an all-zero checksum.
    fn minisign_w_file(generated: &GeneratedKey) -> String {
        let line = generated.secret_file.lines().nth(1).unwrap();
        let mut raw = decode_base64(line).unwrap();
        assert_eq!(raw.len(), SECRET_KEY_BYTES);
        assert_eq!(encode_base64(&raw), line, "the test encoder round-trips");
        raw[CHECKSUM_AT..].fill(0);
        format!(
            "untrusted comment: minisign encrypted secret key\n{}\n",
            encode_base64(&raw)
        )
    }

    #[test]
    fn keys_made_with_minisign_w_sign() {
        let tmp = tempfile::tempdir().unwrap();
        let generated = generate("plain", None).unwrap();
        let path = tmp.path().join("w.key");
        std::fs::write(&path, minisign_w_file(&generated)).unwrap();
        let key = SigningKey::load(&path, None).unwrap();
        assert_eq!(key.public_key(), generated.public_key);
        let sig = key.sign(b"index", "version=1").unwrap();
        let pk = minisign_verify::PublicKey::from_base64(&generated.public_key).unwrap();
        pk.verify(
            b"index",
            &minisign_verify::Signature::decode(&sig).unwrap(),
            false,
        )
        .unwrap();
    }

    #[test]
    fn a_damaged_unencrypted_key_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let generated = generate("plain", None).unwrap();
        let file = minisign_w_file(&generated);
        let line = file.lines().nth(1).unwrap();
        let mut raw = decode_base64(line).unwrap();
        raw[70] ^= 1; // a bit of the Ed25519 seed
        let path = tmp.path().join("bad.key");
        std::fs::write(
            &path,
            format!("untrusted comment: x\n{}\n", encode_base64(&raw)),
        )
        .unwrap();
        let err = SigningKey::load(&path, None).err().unwrap();
        assert!(matches!(err, PublishError::Key { .. }), "{err}");
        // With its real checksum, the crate's own check refuses it too.
        let mut raw = decode_base64(generated.secret_file.lines().nth(1).unwrap()).unwrap();
        raw[70] ^= 1;
        std::fs::write(
            &path,
            format!("untrusted comment: x\n{}\n", encode_base64(&raw)),
        )
        .unwrap();
        let err = SigningKey::load(&path, None).err().unwrap();
        assert!(err.to_string().contains("Corrupted"), "{err}");
    }

    #[test]
    fn garbage_is_not_a_key() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("junk.key");
        std::fs::write(&path, "hello\n").unwrap();
        let err = SigningKey::load(&path, None).err().unwrap();
        assert!(matches!(err, PublishError::Key { .. }), "{err}");
        assert!(
            err.to_string().contains("minisign secret key file"),
            "{err}"
        );
    }
}
