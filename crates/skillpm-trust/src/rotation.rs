//! Key rotation: a source's pinned key is replaced only when the new public
//! key is signed by a key already pinned, so whoever controls the registry's
//! old key vouches for the new one and nobody else can.
//!
//! The signature must be a prehashed minisign signature over the new key's
//! base64 text (`RW…`), with or without one trailing newline, e.g.
//! `printf %s RW… > new.key && minisign -S -s old.key -m new.key`.

use serde::Serialize;

use super::{PinnedKey, TrustError, verify_bytes};

/// An accepted rotation.
#[derive(Debug, Clone, Serialize)]
pub struct Rotation {
    /// The pinned key that signed the new one.
    pub old_key: String,
    pub old_key_id: String,
    pub new_key: String,
    pub new_key_id: String,
}

/// Checks that `signature` is a signature of `new_key` by one of `pinned`.
pub fn verify_rotation(
    pinned: &[PinnedKey],
    new_key: &str,
    signature: &str,
) -> Result<Rotation, TrustError> {
    let new = PinnedKey::parse(new_key)?;
    if pinned.is_empty() {
        return Err(TrustError::MissingSignature {
            what: "a pinned key to vouch for the new one".into(),
            reason: "this source pins no keys; add the key with `skillpm source add --key` instead"
                .into(),
        });
    }
    let what = format!("the signature over new key {}", new.id());
    let exact = verify_bytes(&what, new.as_str().as_bytes(), signature, pinned);
    let old = match exact {
        Ok(old) => old,
        Err(TrustError::Mismatch { .. }) => verify_bytes(
            &what,
            format!("{}\n", new.as_str()).as_bytes(),
            signature,
            pinned,
        )?,
        Err(e) => return Err(e),
    };
    Ok(Rotation {
        old_key: old.as_str().to_owned(),
        old_key_id: old.id().to_string(),
        new_key: new.as_str().to_owned(),
        new_key_id: new.id().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_pinned_key_can_vouch() {
        let old = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let new = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let stranger = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        let pinned = vec![PinnedKey::parse(&old.pk.to_base64()).unwrap()];
        let new_text = new.pk.to_base64();
        let sign = |kp: &minisign::KeyPair, msg: &[u8]| {
            minisign::sign(Some(&kp.pk), &kp.sk, msg, None, None)
                .unwrap()
                .into_string()
        };
        let ok = verify_rotation(&pinned, &new_text, &sign(&old, new_text.as_bytes())).unwrap();
        assert_eq!(ok.new_key, new_text);
        let with_newline = format!("{new_text}\n");
        assert!(verify_rotation(&pinned, &new_text, &sign(&old, with_newline.as_bytes())).is_ok());
        let err =
            verify_rotation(&pinned, &new_text, &sign(&stranger, new_text.as_bytes())).unwrap_err();
        assert!(matches!(err, TrustError::UnknownKey { .. }), "{err}");
        let err = verify_rotation(&pinned, &new_text, &sign(&old, b"something else")).unwrap_err();
        assert!(matches!(err, TrustError::Mismatch { .. }), "{err}");
    }
}
