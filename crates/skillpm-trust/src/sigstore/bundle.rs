//! The Sigstore bundle's JSON (protobuf-specs `Bundle`, media types v0.1 to
//! v0.3) and Sigstore's trusted root (`TrustedRoot` v0.1), as read from
//! disk: only the fields verification needs, every binary field decoded
//! once here (docs/provenance.md#sigstore-bundles).

use base64::Engine as _;
use serde::Deserialize;

/// The bundle media types skillpm reads.
pub const MEDIA_TYPES: [&str; 4] = [
    "application/vnd.dev.sigstore.bundle+json;version=0.1",
    "application/vnd.dev.sigstore.bundle+json;version=0.2",
    "application/vnd.dev.sigstore.bundle+json;version=0.3",
    "application/vnd.dev.sigstore.bundle.v0.3+json",
];

pub fn b64(text: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|_| format!("{text:.40}… is not base64"))
}

/// protobuf's JSON writes 64-bit integers as strings; some writers don't.
fn int<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Int {
        N(u64),
        S(String),
    }
    match Int::deserialize(d)? {
        Int::N(n) => Ok(n),
        Int::S(s) => s.parse().map_err(serde::de::Error::custom),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bundle {
    pub media_type: String,
    pub verification_material: Material,
    #[serde(default)]
    pub message_signature: Option<MessageSignature>,
    #[serde(default)]
    pub dsse_envelope: Option<Envelope>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Material {
    /// v0.1, v0.2: the leaf first (any further certificates are ignored:
    /// the chain comes from the trusted root).
    #[serde(default)]
    pub x509_certificate_chain: Option<CertChain>,
    /// v0.3: the leaf alone.
    #[serde(default)]
    pub certificate: Option<RawBytes>,
    /// A keyed (non-keyless) bundle: refused.
    #[serde(default)]
    pub public_key: Option<serde_json::Value>,
    #[serde(default)]
    pub tlog_entries: Vec<TlogEntry>,
}

#[derive(Debug, Deserialize)]
pub struct CertChain {
    pub certificates: Vec<RawBytes>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawBytes {
    pub raw_bytes: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlogEntry {
    #[serde(deserialize_with = "int")]
    pub log_index: u64,
    pub log_id: KeyIdField,
    pub kind_version: KindVersion,
    #[serde(default, deserialize_with = "opt_int")]
    pub integrated_time: Option<u64>,
    #[serde(default)]
    pub inclusion_promise: Option<Promise>,
    #[serde(default)]
    pub inclusion_proof: Option<InclusionProof>,
    pub canonicalized_body: String,
}

fn opt_int<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    int(d).map(Some)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyIdField {
    pub key_id: String,
}

#[derive(Debug, Deserialize)]
pub struct KindVersion {
    pub kind: String,
    pub version: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Promise {
    pub signed_entry_timestamp: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InclusionProof {
    #[serde(deserialize_with = "int")]
    pub log_index: u64,
    pub root_hash: String,
    #[serde(deserialize_with = "int")]
    pub tree_size: u64,
    #[serde(default)]
    pub hashes: Vec<String>,
    #[serde(default)]
    pub checkpoint: Option<Checkpoint>,
}

#[derive(Debug, Deserialize)]
pub struct Checkpoint {
    pub envelope: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSignature {
    pub message_digest: MessageDigest,
    pub signature: String,
}

#[derive(Debug, Deserialize)]
pub struct MessageDigest {
    pub algorithm: String,
    pub digest: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    pub payload: String,
    pub payload_type: String,
    pub signatures: Vec<EnvelopeSignature>,
}

#[derive(Debug, Deserialize)]
pub struct EnvelopeSignature {
    pub sig: String,
}

/// An in-toto statement (v0.1 or v1): only its subjects matter here.
#[derive(Debug, Deserialize)]
pub struct Statement {
    #[serde(rename = "_type")]
    pub kind: String,
    pub subject: Vec<Subject>,
}

#[derive(Debug, Deserialize)]
pub struct Subject {
    pub digest: std::collections::BTreeMap<String, String>,
}

/// Sigstore's trusted root (`application/vnd.dev.sigstore.trustedroot+json`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootFile {
    pub media_type: String,
    #[serde(default)]
    pub tlogs: Vec<RootLog>,
    #[serde(default)]
    pub certificate_authorities: Vec<Authority>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootLog {
    pub public_key: RootKey,
    pub log_id: KeyIdField,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootKey {
    #[serde(default)]
    pub raw_bytes: Option<String>,
    #[serde(default)]
    pub valid_for: Option<ValidFor>,
}

#[derive(Debug, Deserialize)]
pub struct ValidFor {
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub end: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Authority {
    pub cert_chain: CertChain,
    #[serde(default)]
    pub valid_for: Option<ValidFor>,
}
