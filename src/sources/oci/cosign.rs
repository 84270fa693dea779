//! cosign key-pair signatures (cosign's SIGNATURE_SPEC): the signature of
//! image `sha256:HEX` is an image manifest at tag `sha256-HEX.sig` whose
//! layers are simple-signing payloads
//! (`application/vnd.dev.cosign.simplesigning.v1+json`), each annotated with
//! `dev.cosignproject.cosign/signature`: base64 of an ASN.1 DER ECDSA
//! signature over the payload's exact bytes. The payload's
//! `critical.image.docker-manifest-digest` names the image signed.
//! Only ECDSA P-256 keys (what `cosign generate-key-pair` makes) are read.

use aws_lc_rs::signature::{ECDSA_P256_SHA256_ASN1, UnparsedPublicKey};
use base64::Engine as _;

use super::manifest::{COSIGN_SIGNATURE, SIMPLE_SIGNING};
use super::{OciError, Registry};
use crate::digest::Digest;

/// The DER header of a SubjectPublicKeyInfo for an uncompressed P-256 point:
/// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (65 bytes) }.
const P256_SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
    0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];
/// Signature manifests are small; more layers than this is not one.
const MAX_SIGNATURES: usize = 64;

/// A pinned cosign public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CosignKey {
    der: Vec<u8>,
}

impl CosignKey {
    /// From a PEM `PUBLIC KEY` block (cosign.pub).
    pub fn from_pem(text: &str) -> Result<Self, String> {
        let body: String = text
            .lines()
            .map(str::trim)
            .skip_while(|l| *l != "-----BEGIN PUBLIC KEY-----")
            .skip(1)
            .take_while(|l| *l != "-----END PUBLIC KEY-----")
            .collect();
        if body.is_empty() {
            return Err("no `-----BEGIN PUBLIC KEY-----` block (cosign.pub holds one)".into());
        }
        Self::from_base64(&body)
    }

    /// From the base64 DER that skills.toml keeps (`cosign-key`).
    pub fn from_base64(text: &str) -> Result<Self, String> {
        let der = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|_| "the key is not base64".to_owned())?;
        if der.len() != P256_SPKI_PREFIX.len() + 65
            || der[..P256_SPKI_PREFIX.len()] != P256_SPKI_PREFIX
            || der[P256_SPKI_PREFIX.len()] != 0x04
        {
            return Err(
                "not an ECDSA P-256 public key (cosign generate-key-pair makes one)".into(),
            );
        }
        Ok(CosignKey { der })
    }

    pub fn to_base64(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.der)
    }

    /// Whether `signature` (ASN.1 DER) is this key's over `payload`.
    pub fn verifies(&self, payload: &[u8], signature: &[u8]) -> bool {
        let point = &self.der[P256_SPKI_PREFIX.len()..];
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_ASN1, point)
            .verify(payload, signature)
            .is_ok()
    }
}

/// cosign's tag for the signatures of `digest`.
pub fn signature_tag(digest: &Digest) -> String {
    format!("sha256-{}.sig", digest.hex())
}

/// Requires a signature by `key` over a payload naming `digest` in `repo`.
/// Unsigned, signed by another key, or signed for another digest: exit 3.
pub fn verify(
    registry: &Registry<'_>,
    repo: &str,
    digest: &Digest,
    key: &CosignKey,
) -> Result<(), OciError> {
    let tag = signature_tag(digest);
    let refused = |why: &str| {
        OciError::Signature(format!(
            "{repo}@{digest}: {why}; the source pins a cosign key, so unsigned or wrongly signed artifacts are refused"
        ))
    };
    let pulled = match registry.pull_manifest(repo, &tag) {
        Ok(p) => p,
        Err(OciError::NotFound { .. }) => {
            return Err(refused(&format!("no cosign signature (no tag {tag})")));
        }
        Err(e) => return Err(e),
    };
    let mut seen = 0;
    for layer in pulled.manifest.layers.iter().take(MAX_SIGNATURES) {
        if layer.media_type != SIMPLE_SIGNING {
            continue;
        }
        let Some(sig) = layer.annotations.get(COSIGN_SIGNATURE) else {
            continue;
        };
        seen += 1;
        let Ok(sig) = base64::engine::general_purpose::STANDARD.decode(sig.trim()) else {
            continue;
        };
        let payload = registry.small_blob(repo, layer)?;
        if !key.verifies(&payload, &sig) {
            continue;
        }
        if signed_digest(&payload).as_deref() == Some(&digest.to_string()) {
            return Ok(());
        }
        return Err(refused(&format!(
            "the signature by the pinned key is for {}, not this digest",
            signed_digest(&payload).unwrap_or_else(|| "no digest".into())
        )));
    }
    Err(refused(&if seen == 0 {
        format!("the signature manifest at {tag} holds no cosign signature")
    } else {
        format!("none of the {seen} signatures at {tag} is by the pinned key")
    }))
}

/// `critical.image.docker-manifest-digest` of a simple-signing payload.
fn signed_digest(payload: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(payload).ok()?;
    value
        .get("critical")?
        .get("image")?
        .get("docker-manifest-digest")?
        .as_str()
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_p256_public_keys_are_read() {
        assert!(CosignKey::from_pem("no key here").is_err());
        assert!(CosignKey::from_base64("!!").is_err());
        // An Ed25519 SubjectPublicKeyInfo is not a cosign ECDSA key.
        let ed = "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=";
        assert!(CosignKey::from_base64(ed).is_err());
        let mut der = P256_SPKI_PREFIX.to_vec();
        der.push(0x04);
        der.extend([7u8; 64]);
        let text = base64::engine::general_purpose::STANDARD.encode(&der);
        let key = CosignKey::from_base64(&text).unwrap();
        assert_eq!(key.to_base64(), text);
        let pem = format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n{}\n-----END PUBLIC KEY-----\n",
            &text[..64],
            &text[64..]
        );
        assert_eq!(CosignKey::from_pem(&pem).unwrap(), key);
        assert!(!key.verifies(b"payload", b"not a signature"));
        let digest = Digest::of_bytes(b"x");
        assert_eq!(
            signature_tag(&digest),
            format!("sha256-{}.sig", digest.hex())
        );
    }
}
