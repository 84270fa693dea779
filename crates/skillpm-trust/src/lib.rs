//! Trust in a source's index (docs/design.md#trust): pinned minisign keys, the
//! signature over the exact index bytes, and the trusted comment's
//! `version=` (rollback guard) and `expires=` (freeze guard).
//!
//! The signature file `index.json.minisig` covers `index.json` as a whole;
//! the entry digests inside then cover every artifact, so one check at the
//! top anchors everything below it. Only prehashed signatures (minisign's
//! default since 0.8) are accepted; verification uses `minisign-verify`.
//! The trusted comment's format has its own module, [`comment`].

// The modules of the layers below, under the names the code uses
// (docs/architecture.md).
use skillpm_base::{cache, classified, digest, error, fs};

pub mod comment;
pub mod record_key;
mod rollback;
mod rotation;
pub mod sigstore;
mod time;

use std::fmt;
use std::time::SystemTime;

use serde::Serialize;

use crate::digest::Digest;
use crate::error::{Classify, Exit};

pub use comment::{TrustedComment, format_time, signed_version};
pub use record_key::RecordKey;
pub use rollback::RollbackGuard;
pub use rotation::{Rotation, verify_rotation};

#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error(
        "{text:?} is not a minisign public key ({reason}); a key looks like `RWQ…` (56 base64 characters)"
    )]
    BadKey { text: String, reason: String },
    #[error("{what} is not a minisign signature: {reason}")]
    BadSignatureFile { what: String, reason: String },
    #[error(
        "{what} has a legacy (non-prehashed) signature, which skillpm refuses; expected a prehashed signature (re-sign with minisign 0.8 or later, or `minisign -S -H`)"
    )]
    Legacy { what: String },
    #[error(
        "{what} is signed by key {actual}, but this source pins {expected}; if the registry rotated its key, run `skillpm source rotate-key`"
    )]
    UnknownKey {
        what: String,
        expected: String,
        actual: String,
    },
    #[error(
        "signature check failed for {what}: expected bytes signed by key {key_id}, got content (sha256 {actual}) that key never signed; it was changed after signing or the signature is for other bytes"
    )]
    Mismatch {
        what: String,
        key_id: String,
        actual: Digest,
    },
    #[error("{what}: the signed trusted comment {comment:?} {problem}")]
    Comment {
        what: String,
        comment: String,
        problem: String,
    },
    #[error(
        "{what} expired: signed to be valid until {expires}, and it is now {now}; the registry must publish a freshly signed index"
    )]
    Expired {
        what: String,
        expires: String,
        now: String,
    },
    #[error(
        "{what} is a rollback: expected signed version {expected} or higher (seen before), got version {actual}; someone may be serving an old index"
    )]
    Rollback {
        what: String,
        expected: u64,
        actual: u64,
    },
    #[error("a source with pinned keys needs {what}, which is missing: {reason}")]
    MissingSignature { what: String, reason: String },
    #[error("cannot record the signed version in {path}: {source}")]
    State {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

crate::classified!(TrustError);
impl Classify for TrustError {
    fn exit(&self) -> Exit {
        match self {
            TrustError::BadKey { .. } => Exit::Usage,
            TrustError::State { .. } => Exit::Other,
            _ => Exit::Integrity,
        }
    }
}

/// A minisign key identifier, shown as minisign shows it (16 hex digits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId([u8; 8]);

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // minisign prints the little-endian u64 in upper-case hex.
        write!(f, "{:016X}", u64::from_le_bytes(self.0))
    }
}

impl KeyId {
    fn from_slice(bytes: &[u8]) -> Option<Self> {
        bytes.try_into().ok().map(KeyId)
    }
}

/// A public key pinned for a source in `skills.toml`.
#[derive(Clone)]
pub struct PinnedKey {
    text: String,
    id: KeyId,
    key: minisign::PublicKey,
}

impl fmt::Debug for PinnedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PinnedKey({} {})", self.id, self.text)
    }
}

impl PinnedKey {
    /// Parses the base64 form (`RW…`), as `minisign -G` prints it.
    pub fn parse(text: &str) -> Result<Self, TrustError> {
        let text = text.trim();
        let bad = |reason: String| TrustError::BadKey {
            text: text.to_owned(),
            reason,
        };
        let key = minisign::PublicKey::from_base64(text).map_err(|e| bad(e.to_string()))?;
        let id = KeyId::from_slice(key.keynum()).ok_or_else(|| bad("bad key id".into()))?;
        Ok(PinnedKey {
            text: text.to_owned(),
            id,
            key,
        })
    }

    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Self>, TrustError> {
        texts.iter().map(|t| PinnedKey::parse(t.as_ref())).collect()
    }

    /// The base64 public key, as pinned.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn id(&self) -> KeyId {
        self.id
    }
}

/// Who signed an index, and what its trusted comment promised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Signer {
    /// The pinned public key (`RW…`) that verified the signature.
    pub key: String,
    /// Its key id, as minisign prints it.
    pub key_id: String,
    pub version: u64,
    /// `expires=` exactly as signed, when present.
    pub expires: Option<String>,
}

/// A decoded signature file and the facts read from it before verification.
struct SignatureFile {
    signature: minisign::SignatureBox,
    key_id: KeyId,
    trusted_comment: String,
}

fn decode_signature(what: &str, text: &str) -> Result<SignatureFile, TrustError> {
    let bad = |reason: String| TrustError::BadSignatureFile {
        what: what.to_owned(),
        reason,
    };
    let signature = minisign::SignatureBox::from_string(text).map_err(|e| bad(e.to_string()))?;
    let key_id = KeyId::from_slice(signature.keynum()).ok_or_else(|| bad("bad key id".into()))?;
    let trusted_comment = signature
        .trusted_comment()
        .map_err(|e| bad(e.to_string()))?;
    Ok(SignatureFile {
        signature,
        key_id,
        trusted_comment,
    })
}

/// Verifies `signature` (the text of a `.minisig` file) over exactly `bytes`
/// with one of `keys`, refusing legacy signatures, then checks the trusted
/// comment against `now`. `what` names the document in messages. The
/// rollback check is separate ([`RollbackGuard`]), since it needs state.
pub fn verify_signed(
    what: &str,
    bytes: &[u8],
    signature: &str,
    keys: &[PinnedKey],
    now: SystemTime,
) -> Result<Signer, TrustError> {
    let signer = verify_snapshot(what, bytes, signature, keys)?;
    // The comment parsed, so its `expires=` is a valid time.
    if let Some(text) = &signer.expires
        && time::parse_rfc3339(text).is_some_and(|at| now > at)
    {
        return Err(TrustError::Expired {
            what: what.to_owned(),
            expires: text.clone(),
            now: humantime::format_rfc3339_seconds(now).to_string(),
        });
    }
    Ok(signer)
}

/// Verifies a kept snapshot: like [`verify_signed`] but without the expiry
/// check. A snapshot proves what a pinned key signed at the time; expiry
/// (freeze protection) applies to the index a client fetches as current.
pub fn verify_snapshot(
    what: &str,
    bytes: &[u8],
    signature: &str,
    keys: &[PinnedKey],
) -> Result<Signer, TrustError> {
    let sig = decode_signature(what, signature)?;
    let key = verify_decoded(what, bytes, &sig, keys)?;
    let fields = TrustedComment::parse(what, &sig.trusted_comment)?;
    Ok(Signer {
        key: key.text.clone(),
        key_id: key.id.to_string(),
        version: fields.version,
        expires: fields.expires,
    })
}

/// The signature check alone: prehashed, by a pinned key, over these bytes.
/// Returns the key that verified it.
pub(crate) fn verify_bytes<'k>(
    what: &str,
    bytes: &[u8],
    signature: &str,
    keys: &'k [PinnedKey],
) -> Result<&'k PinnedKey, TrustError> {
    verify_decoded(what, bytes, &decode_signature(what, signature)?, keys)
}

fn verify_decoded<'k>(
    what: &str,
    bytes: &[u8],
    sig: &SignatureFile,
    keys: &'k [PinnedKey],
) -> Result<&'k PinnedKey, TrustError> {
    if !sig.signature.is_prehashed() {
        return Err(TrustError::Legacy {
            what: what.to_owned(),
        });
    }
    let key = keys.iter().find(|k| k.id == sig.key_id).ok_or_else(|| {
        let pinned: Vec<String> = keys.iter().map(|k| k.id.to_string()).collect();
        TrustError::UnknownKey {
            what: what.to_owned(),
            expected: if pinned.is_empty() {
                "no key".into()
            } else {
                format!("key {}", pinned.join(" or "))
            },
            actual: sig.key_id.to_string(),
        }
    })?;
    // Quiet, no output, legacy refused (checked above too).
    minisign::verify(
        &key.key,
        &sig.signature,
        std::io::Cursor::new(bytes),
        true,
        false,
        false,
    )
    .map_err(|_| TrustError::Mismatch {
        what: what.to_owned(),
        key_id: key.id.to_string(),
        actual: Digest::of_bytes(bytes),
    })?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keypair() -> (minisign::KeyPair, PinnedKey) {
        let kp = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let pinned = PinnedKey::parse(&kp.pk.to_base64()).unwrap();
        (kp, pinned)
    }

    fn sign(kp: &minisign::KeyPair, bytes: &[u8], comment: &str) -> String {
        minisign::sign(Some(&kp.pk), &kp.sk, bytes, Some(comment), None)
            .unwrap()
            .into_string()
    }

    #[test]
    fn valid_signature_reports_signer_and_version() {
        let (kp, key) = keypair();
        let sig = sign(&kp, b"{}", "version=7 expires=2999-01-01T00:00:00Z");
        let signer = verify_signed(
            "index",
            b"{}",
            &sig,
            std::slice::from_ref(&key),
            SystemTime::now(),
        )
        .unwrap();
        assert_eq!(signer.version, 7);
        assert_eq!(signer.key, key.as_str());
        assert_eq!(signer.key_id, key.id().to_string());
        assert_eq!(signer.key_id.len(), 16);
    }

    #[test]
    fn tampered_bytes_wrong_key_and_bad_comments_are_refused() {
        let (kp, key) = keypair();
        let (_, other) = keypair();
        let now = SystemTime::now();
        let sig = sign(&kp, b"{}", "version=1");
        let err =
            verify_signed("index", b"{ }", &sig, std::slice::from_ref(&key), now).unwrap_err();
        assert!(matches!(err, TrustError::Mismatch { .. }), "{err}");
        let err = verify_signed("index", b"{}", &sig, &[other], now).unwrap_err();
        assert!(matches!(err, TrustError::UnknownKey { .. }), "{err}");
        for comment in [
            "timestamp:1",
            "version=x",
            "version=1 version=2",
            "version=1 expires=tomorrow",
        ] {
            let sig = sign(&kp, b"{}", comment);
            let err =
                verify_signed("index", b"{}", &sig, std::slice::from_ref(&key), now).unwrap_err();
            assert!(
                matches!(err, TrustError::Comment { .. }),
                "{comment}: {err}"
            );
            assert_eq!(err.exit(), Exit::Integrity);
        }
    }

    #[test]
    fn expiry_is_enforced() {
        let (kp, key) = keypair();
        let sig = sign(&kp, b"{}", "version=1 expires=2020-01-01T00:00:00+02:00");
        let err = verify_signed(
            "index",
            b"{}",
            &sig,
            std::slice::from_ref(&key),
            SystemTime::now(),
        )
        .unwrap_err();
        assert!(matches!(err, TrustError::Expired { .. }), "{err}");
        let before = time::parse_rfc3339("2019-12-31T21:59:59Z").unwrap();
        assert!(verify_signed("index", b"{}", &sig, &[key], before).is_ok());
    }
}
