//! The signing certificate: its chain to a Fulcio authority of the trusted
//! root at the log's time (rustls-webpki, the verifier rustls uses), its
//! public key, and the identity Fulcio wrote into it (the SAN and Fulcio's
//! OID extensions, docs/provenance.md#what-is-checked).

use std::time::Duration;

use aws_lc_rs::digest;
use aws_lc_rs::signature::{self, UnparsedPublicKey, VerificationAlgorithm};
use rustls_pki_types::{CertificateDer, UnixTime};
use x509_cert::Certificate;
use x509_cert::der::asn1::ObjectIdentifier as Oid;
use x509_cert::der::{Decode, Encode};
use x509_cert::ext::pkix::SubjectAltName;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::spki::SubjectPublicKeyInfoRef;

/// Extended key usage `id-kp-codeSigning` (1.3.6.1.5.5.7.3.3), its DER value.
const CODE_SIGNING: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03];

/// Fulcio's certificate extensions (docs/provenance.md#what-is-checked).
const ISSUER_V1: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.1");
const WORKFLOW_SHA_V1: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.3");
const WORKFLOW_REPOSITORY_V1: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.5");
const ISSUER_V2: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.8");
const BUILD_CONFIG_URI: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.18");
const SOURCE_REPOSITORY_URI: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.12");
const SOURCE_REPOSITORY_DIGEST: Oid = Oid::new_unwrap("1.3.6.1.4.1.57264.1.13");

const EC_PUBLIC_KEY: Oid = Oid::new_unwrap("1.2.840.10045.2.1");
const P256: Oid = Oid::new_unwrap("1.2.840.10045.3.1.7");
const P384: Oid = Oid::new_unwrap("1.3.132.0.34");
const ED25519: Oid = Oid::new_unwrap("1.3.101.112");

/// A public key read from a SubjectPublicKeyInfo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    P256,
    P384,
    Ed25519,
}

#[derive(Debug, Clone)]
pub struct VerifyingKey {
    curve: Curve,
    point: Vec<u8>,
}

impl VerifyingKey {
    /// From DER SubjectPublicKeyInfo bytes.
    pub fn from_spki(der: &[u8]) -> Result<Self, String> {
        let spki =
            SubjectPublicKeyInfoRef::from_der(der).map_err(|e| format!("not a public key: {e}"))?;
        let curve = if spki.algorithm.oid == ED25519 {
            Curve::Ed25519
        } else if spki.algorithm.oid == EC_PUBLIC_KEY {
            match spki.algorithm.parameters_oid() {
                Ok(p) if p == P256 => Curve::P256,
                Ok(p) if p == P384 => Curve::P384,
                _ => {
                    return Err("an elliptic-curve key on a curve other than P-256 or P-384".into());
                }
            }
        } else {
            return Err(format!(
                "a {} key (only ECDSA and Ed25519 are read)",
                spki.algorithm.oid
            ));
        };
        let point = (spki.subject_public_key.as_bytes())
            .ok_or("a public key of a partial byte")?
            .to_vec();
        Ok(VerifyingKey { curve, point })
    }

    /// From the raw public key of `curve`: an uncompressed point for ECDSA,
    /// the 32 bytes for Ed25519 (TUF's hex keys).
    pub fn from_raw(curve: Curve, point: Vec<u8>) -> Self {
        VerifyingKey { curve, point }
    }

    pub fn curve(&self) -> Curve {
        self.curve
    }

    /// The key's bytes (its point), to tell two keys apart.
    pub fn bytes(&self) -> &[u8] {
        &self.point
    }

    /// Whether `signature` is this key's over `message` (hashed with the
    /// curve's own hash: SHA-256 for P-256, SHA-384 for P-384).
    pub fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        let algorithm: &dyn VerificationAlgorithm = match self.curve {
            Curve::P256 => &signature::ECDSA_P256_SHA256_ASN1,
            Curve::P384 => &signature::ECDSA_P384_SHA384_ASN1,
            Curve::Ed25519 => &signature::ED25519,
        };
        algorithm
            .verify_sig(&self.point, message, signature)
            .is_ok()
    }

    /// Whether `signature` is this key's over a message whose SHA-256 (32
    /// bytes) or SHA-384/512 is `prehash` (hashedrekord signs the artifact;
    /// only its digest travels).
    pub fn verifies_digest(&self, prehash: &[u8], signature: &[u8]) -> bool {
        let (hash, algorithm): (_, &'static signature::EcdsaVerificationAlgorithm) =
            match (self.curve, prehash.len()) {
                (Curve::P256, 32) => (&digest::SHA256, &signature::ECDSA_P256_SHA256_ASN1),
                (Curve::P384, 32) => (&digest::SHA256, &signature::ECDSA_P384_SHA256_ASN1),
                (Curve::P384, 48) => (&digest::SHA384, &signature::ECDSA_P384_SHA384_ASN1),
                (Curve::P256, 64) => (&digest::SHA512, &signature::ECDSA_P256_SHA512_ASN1),
                (Curve::P384, 64) => (&digest::SHA512, &signature::ECDSA_P384_SHA512_ASN1),
                _ => return false,
            };
        let Ok(d) = digest::Digest::import_less_safe(prehash, hash) else {
            return false;
        };
        UnparsedPublicKey::new(algorithm, &self.point)
            .verify_digest(&d, signature)
            .is_ok()
    }
}

/// What a Fulcio certificate says about who signed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// The SAN: a URI (a workflow, for CI) or an email address.
    pub identity: String,
    /// The OIDC issuer (extension .1.8, else the deprecated .1.1).
    pub issuer: String,
    pub source_repository: Option<String>,
    pub source_commit: Option<String>,
    /// The build configuration (the workflow file at its ref).
    pub build_config: Option<String>,
}

/// A parsed leaf certificate.
pub struct Leaf {
    pub der: Vec<u8>,
    pub key: VerifyingKey,
    pub identity: Identity,
    pub not_before: u64,
    pub not_after: u64,
}

impl Leaf {
    pub fn parse(der: Vec<u8>) -> Result<Self, String> {
        let cert = Certificate::from_der(&der).map_err(|e| format!("not a certificate: {e}"))?;
        let tbs = cert.tbs_certificate();
        let spki = tbs
            .subject_public_key_info()
            .to_der()
            .map_err(|e| e.to_string())?;
        let key = VerifyingKey::from_spki(&spki)?;
        let identity = identity_of(&cert)?;
        let validity = tbs.validity();
        Ok(Leaf {
            key,
            identity,
            not_before: validity.not_before.to_unix_duration().as_secs(),
            not_after: validity.not_after.to_unix_duration().as_secs(),
            der,
        })
    }

    /// Verifies the chain from this leaf to one of `chains` (each a Fulcio
    /// authority's chain, its root last) at `at` (seconds since the epoch),
    /// the leaf's extended key usage being code signing.
    pub fn chains_to(&self, chains: &[&[Vec<u8>]], at: u64) -> Result<(), String> {
        if at < self.not_before || at > self.not_after {
            return Err(format!(
                "the certificate is valid from {} to {}, and the log recorded the entry at {}: it was not valid when it signed",
                show_time(self.not_before),
                show_time(self.not_after),
                show_time(at)
            ));
        }
        let leaf = CertificateDer::from(self.der.as_slice());
        let end = webpki::EndEntityCert::try_from(&leaf).map_err(|e| format!("{e:?}"))?;
        let time = UnixTime::since_unix_epoch(Duration::from_secs(at));
        let mut last = String::from("the trusted root has no certificate authority");
        for chain in chains {
            let Some((root, intermediates)) = chain.split_last() else {
                continue;
            };
            let root = CertificateDer::from(root.as_slice());
            let Ok(anchor) = webpki::anchor_from_trusted_cert(&root) else {
                continue;
            };
            let intermediates: Vec<CertificateDer<'_>> = (intermediates.iter())
                .map(|c| CertificateDer::from(c.as_slice()))
                .collect();
            match end.verify_for_usage(
                ALGORITHMS,
                &[anchor],
                &intermediates,
                time,
                webpki::KeyUsage::required(CODE_SIGNING),
                None,
                None,
            ) {
                Ok(_) => return Ok(()),
                Err(e) => last = format!("{e:?}"),
            }
        }
        Err(last)
    }
}

static ALGORITHMS: &[&dyn rustls_pki_types::SignatureVerificationAlgorithm] = &[
    webpki::aws_lc_rs::ECDSA_P256_SHA256,
    webpki::aws_lc_rs::ECDSA_P256_SHA384,
    webpki::aws_lc_rs::ECDSA_P384_SHA256,
    webpki::aws_lc_rs::ECDSA_P384_SHA384,
    webpki::aws_lc_rs::ED25519,
];

/// `2024-03-19T22:41:15Z`.
pub fn show_time(secs: u64) -> String {
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + Duration::from_secs(secs)).to_string()
}

fn identity_of(cert: &Certificate) -> Result<Identity, String> {
    let tbs = cert.tbs_certificate();
    let san = match tbs.get_extension::<SubjectAltName>() {
        Ok(Some((_, san))) => san,
        Ok(None) => return Err("the certificate names no identity (no SAN)".into()),
        Err(e) => return Err(format!("its SAN does not parse: {e}")),
    };
    let identity = (san.0.iter())
        .find_map(|name| match name {
            GeneralName::UniformResourceIdentifier(u) => Some(u.to_string()),
            GeneralName::Rfc822Name(e) => Some(e.to_string()),
            _ => None,
        })
        .ok_or("the certificate's SAN holds no URI or email address")?;
    let ext = |oid: Oid, der_string: bool| -> Option<String> {
        let e = tbs.extensions()?.iter().find(|e| e.extn_id == oid)?;
        let bytes = e.extn_value.as_bytes();
        if der_string {
            // .1.8 onwards: a DER UTF8String.
            x509_cert::der::asn1::Utf8StringRef::from_der(bytes)
                .ok()
                .map(|s| s.as_str().to_owned())
        } else {
            // .1.1 to .1.6: the raw bytes of the string.
            String::from_utf8(bytes.to_vec()).ok()
        }
    };
    let issuer = ext(ISSUER_V2, true)
        .or_else(|| ext(ISSUER_V1, false))
        .ok_or(
            "the certificate names no OIDC issuer (Fulcio extension 1.3.6.1.4.1.57264.1.8 or .1.1)",
        )?;
    Ok(Identity {
        identity,
        issuer,
        source_repository: ext(SOURCE_REPOSITORY_URI, true).or_else(|| {
            ext(WORKFLOW_REPOSITORY_V1, false).map(|r| format!("https://github.com/{r}"))
        }),
        source_commit: ext(SOURCE_REPOSITORY_DIGEST, true).or_else(|| ext(WORKFLOW_SHA_V1, false)),
        build_config: ext(BUILD_CONFIG_URI, true),
    })
}

/// The DER bytes of the (first) certificate of a PEM text.
pub fn pem_certificate(text: &[u8]) -> Option<Vec<u8>> {
    pem_block(text, "CERTIFICATE")
}

/// The DER bytes of the first PEM block labelled `label` in `text`.
pub fn pem_block(text: &[u8], label: &str) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(text).ok()?;
    let (begin, end) = (
        format!("-----BEGIN {label}-----"),
        format!("-----END {label}-----"),
    );
    let mut lines = text.lines().map(str::trim);
    lines.find(|l| *l == begin)?;
    let mut body = String::new();
    for line in lines {
        if line == end {
            return super::bundle::b64(&body).ok();
        }
        body.push_str(line);
    }
    None
}
