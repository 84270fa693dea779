//! Sigstore bundles as a proof (docs/provenance.md#sigstore-bundles): who
//! built an artifact, said by a short-lived Fulcio certificate and Rekor's
//! transparency log, verified offline against Sigstore's trusted root.
//!
//! [`verify`] checks, in order: the bundle's form (media types v0.1–v0.3,
//! a message signature or a DSSE envelope with an in-toto statement), the
//! log entry (signed entry timestamp, inclusion proof and checkpoint: the
//! log's signed time), the certificate chain to a Fulcio authority at that
//! time, the signature over the artifact's digest (or the DSSE PAE, whose
//! statement must name the artifact's digest as a subject), and that the
//! log entry names the same signature, certificate and digest. What it
//! returns is who Fulcio says signed; [`Expected::check`] compares that
//! with what skills.toml declares.

mod bundle;
mod cert;
mod log;
pub mod tuf;

use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest as _, Sha256};

use crate::error::{Classify, Exit};
use bundle::{Bundle, RootFile, b64};
pub use cert::show_time;

/// The trusted root shipped with skillpm (Sigstore's public-good instance,
/// as its TUF repository published it; `skillpm trust update` replaces it).
pub const SHIPPED_ROOT: &str = include_str!("trusted_root.json");
/// The file a refreshed trusted root is kept in, in the user's state folder.
pub const ROOT_FILE: &str = "sigstore-trusted-root.json";

#[derive(Debug, thiserror::Error)]
pub enum SigstoreError {
    #[error("{what} is not a Sigstore bundle skillpm reads: {reason}")]
    BadBundle { what: String, reason: String },
    #[error("{what}: {reason}")]
    Log { what: String, reason: String },
    #[error(
        "{what}: the signing certificate does not chain to Sigstore's trusted root at the time the log recorded ({at}): {reason}"
    )]
    Chain {
        what: String,
        at: String,
        reason: String,
    },
    #[error("{what}: the signature does not hold: {reason}")]
    Signature { what: String, reason: String },
    #[error(
        "{what} vouches for {found}, not for the artifact ({expected}); the artifact was changed or the bundle is for another one"
    )]
    Subject {
        what: String,
        expected: String,
        found: String,
    },
    #[error(
        "{what} was made by a workflow run at {found}, not at {expected}: the bundle is for another commit or another repository"
    )]
    Commit {
        what: String,
        expected: String,
        found: String,
    },
    #[error(
        "{what}: expected a publisher {expected}, but {found}\n  if the publisher moved on purpose, change `identity`/`issuer` of the source in skills.toml"
    )]
    Identity {
        what: String,
        expected: String,
        found: String,
    },
    #[error("the Sigstore trusted root {path} cannot be read: {reason}")]
    BadRoot { path: String, reason: String },
    #[error(
        "{path} does not replace the trusted root in use: {reason}; a newer Sigstore trusted root keeps every key of the one before it"
    )]
    Refresh { path: String, reason: String },
}

crate::classified!(SigstoreError);
impl Classify for SigstoreError {
    fn exit(&self) -> Exit {
        match self {
            SigstoreError::BadRoot { .. } => Exit::Other,
            SigstoreError::Refresh { .. } => Exit::Integrity,
            _ => Exit::Integrity,
        }
    }
}

/// The most bytes a bundle may have (real ones are 5 to 20 KB).
pub const MAX_BUNDLE_BYTES: u64 = 1024 * 1024;

/// Whether `media_type` is a Sigstore bundle's (v0.1 to v0.3), as an OCI
/// referrer's artifact type or layer names it.
pub fn is_bundle_media_type(media_type: &str) -> bool {
    bundle::MEDIA_TYPES.contains(&media_type)
}

/// An artifact's digest as a bundle may name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactDigest {
    Sha256([u8; 32]),
    Sha512(Vec<u8>),
}

impl ArtifactDigest {
    pub fn of(digest: &crate::digest::Digest) -> Self {
        let mut bytes = [0u8; 32];
        // A Digest's hex is always 64 hex digits.
        if let Ok(raw) = hex::decode(digest.hex()) {
            bytes.copy_from_slice(&raw);
        }
        ArtifactDigest::Sha256(bytes)
    }

    fn name(&self) -> &'static str {
        match self {
            ArtifactDigest::Sha256(_) => "sha256",
            ArtifactDigest::Sha512(_) => "sha512",
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            ArtifactDigest::Sha256(b) => b,
            ArtifactDigest::Sha512(b) => b,
        }
    }

    fn show(&self) -> String {
        format!("{}:{}", self.name(), hex::encode(self.bytes()))
    }
}

/// What a bundle must be about: an artifact's digest (the signature's
/// digest or an in-toto subject), or a git commit of a repository, which
/// the Fulcio certificate names as the commit and repository the workflow
/// ran from (`1.3.6.1.4.1.57264.1.13` / `.12`; docs/provenance.md#publisher-identity-for-git-sources).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum About {
    Artifact(ArtifactDigest),
    Commit {
        /// The source's remote, `https://github.com/OWNER/REPO`.
        repository: String,
        /// The full commit id.
        commit: String,
    },
}

impl About {
    /// An artifact of sha256 `digest`.
    pub fn digest(digest: &crate::digest::Digest) -> Self {
        About::Artifact(ArtifactDigest::of(digest))
    }
}

impl From<&ArtifactDigest> for About {
    fn from(digest: &ArtifactDigest) -> Self {
        About::Artifact(digest.clone())
    }
}

/// Who Fulcio says signed, and where the log put it: what a verified
/// bundle proves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verified {
    /// The certificate's SAN (a workflow URI, or an email address).
    pub identity: String,
    pub issuer: String,
    pub log_index: u64,
    /// When the log recorded the entry (seconds since the epoch).
    pub integrated_time: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_repository: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_commit: Option<String>,
}

impl Verified {
    /// `built from github.com/acme/skills at <commit> by workflow
    /// release.yml (log entry N)`, or `signed by <identity> (log entry N)`.
    pub fn summary(&self) -> String {
        let repo = (self.source_repository.as_deref()).map(|r| {
            r.trim_start_matches("https://")
                .trim_start_matches("http://")
                .to_owned()
        });
        match (repo, &self.source_commit, workflow_of(&self.identity)) {
            (Some(repo), Some(commit), Some(workflow)) => format!(
                "built from {repo} at {commit} by workflow {workflow} (log entry {})",
                self.log_index
            ),
            _ => format!("signed by {} (log entry {})", self.identity, self.log_index),
        }
    }
}

/// `release.yml` of `https://github.com/o/r/.github/workflows/release.yml@refs/…`.
fn workflow_of(identity: &str) -> Option<&str> {
    let path = identity.split('@').next()?;
    let (_, file) = path.rsplit_once("/.github/workflows/")?;
    Some(file)
}

/// What skills.toml expects of a source's bundles: an identity and an
/// issuer, each exact or a pattern where `*` stands for any run of
/// characters (docs/provenance.md#declaring-a-publisher).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub identity: String,
    pub issuer: String,
}

impl Expected {
    /// Whether `verified` is the publisher expected; the error names both.
    /// The one identity check (the install policy calls it too).
    pub fn check(&self, what: &str, verified: &Verified) -> Result<(), SigstoreError> {
        if matches(&self.identity, &verified.identity) && matches(&self.issuer, &verified.issuer) {
            return Ok(());
        }
        Err(SigstoreError::Identity {
            what: what.to_owned(),
            expected: format!("{} (issuer {})", self.identity, self.issuer),
            found: format!(
                "the bundle was signed by {} (issuer {})",
                verified.identity, verified.issuer
            ),
        })
    }

    /// The error for an artifact that carries no bundle at all.
    pub fn missing(&self, what: &str, why: &str) -> SigstoreError {
        SigstoreError::Identity {
            what: what.to_owned(),
            expected: format!("{} (issuer {})", self.identity, self.issuer),
            found: why.to_owned(),
        }
    }
}

/// `pattern` with `*` as any run of characters, else exact.
pub fn matches(pattern: &str, value: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == value;
    };
    if parts.len() == 1 {
        return pattern == value;
    }
    let Some(mut rest) = value.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Sigstore's trusted root: the Fulcio authorities and the log keys.
pub struct TrustedRoot {
    /// Each Fulcio authority's chain (root last) and when it issued.
    chains: Vec<(Vec<Vec<u8>>, Window)>,
    logs: Vec<log::LogKey>,
}

impl TrustedRoot {
    /// Parses a trusted root (`application/vnd.dev.sigstore.trustedroot+json`).
    pub fn parse(path: &str, text: &[u8]) -> Result<Self, SigstoreError> {
        let bad = |reason: String| SigstoreError::BadRoot {
            path: path.to_owned(),
            reason,
        };
        let file: RootFile = serde_json::from_slice(text).map_err(|e| bad(e.to_string()))?;
        if !file
            .media_type
            .starts_with("application/vnd.dev.sigstore.trustedroot")
        {
            return Err(bad(format!("media type {:?}", file.media_type)));
        }
        let mut chains = Vec::new();
        for ca in &file.certificate_authorities {
            let certs: Vec<Vec<u8>> = (ca.cert_chain.certificates.iter())
                .map(|c| b64(&c.raw_bytes))
                .collect::<Result<_, _>>()
                .map_err(bad)?;
            chains.push((certs, Window::of(ca.valid_for.as_ref())));
        }
        let mut logs = Vec::new();
        for t in &file.tlogs {
            // A key type skillpm does not read (Rekor v2's Ed25519 keys are
            // read; anything else is left out) cannot vouch.
            let Some(raw) = &t.public_key.raw_bytes else {
                continue;
            };
            let der = b64(raw).map_err(bad)?;
            let Ok(key) = cert::VerifyingKey::from_spki(&der) else {
                continue;
            };
            let window = Window::of(t.public_key.valid_for.as_ref());
            logs.push(log::LogKey {
                id: b64(&t.log_id.key_id).map_err(bad)?,
                key,
                valid: (window.start, window.end),
            });
        }
        if chains.is_empty() || logs.is_empty() {
            return Err(bad("it names no certificate authority or no log".into()));
        }
        Ok(TrustedRoot { chains, logs })
    }

    /// Whether this (newer) root keeps every log key and every Fulcio root
    /// certificate of `older` (a refresh may add keys and close windows; it
    /// may not drop what vouched for bundles already locked). `Err` names
    /// what it drops.
    pub fn keeps(&self, older: &TrustedRoot) -> Result<(), String> {
        for log in &older.logs {
            if !self.logs.iter().any(|l| l.id == log.id) {
                return Err(format!("it drops the log key {}", hex::encode(&log.id)));
            }
        }
        for (chain, _) in &older.chains {
            let root = chain.last();
            if !(self.chains.iter()).any(|(c, _)| c.last() == root) {
                return Err("it drops a Fulcio root certificate".into());
            }
        }
        Ok(())
    }

    /// How many authorities and log keys it holds.
    pub fn counts(&self) -> (usize, usize) {
        (self.chains.len(), self.logs.len())
    }

    /// The root shipped with skillpm.
    pub fn shipped() -> Self {
        // The shipped root is checked by a unit test; a broken one is a
        // build defect, not input.
        match TrustedRoot::parse("(shipped)", SHIPPED_ROOT.as_bytes()) {
            Ok(root) => root,
            Err(e) => panic!("{e}"),
        }
    }

    /// Where a refreshed root is kept: `<state>/sigstore-trusted-root.json`.
    pub fn refreshed_path(state: &Path) -> PathBuf {
        state.join(ROOT_FILE)
    }

    /// The refreshed root in `state` when there is one, else the shipped one.
    pub fn load(state: Option<&Path>) -> Result<Self, SigstoreError> {
        let Some(path) = state.map(Self::refreshed_path) else {
            return Ok(Self::shipped());
        };
        match std::fs::read(&path) {
            Ok(bytes) => TrustedRoot::parse(&path.display().to_string(), &bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::shipped()),
            Err(e) => Err(SigstoreError::BadRoot {
                path: path.display().to_string(),
                reason: e.to_string(),
            }),
        }
    }
}

/// When a key or authority of the trusted root is valid (seconds since the epoch).
#[derive(Debug, Clone, Copy)]
struct Window {
    start: u64,
    end: Option<u64>,
}

impl Window {
    fn of(valid: Option<&bundle::ValidFor>) -> Self {
        let at = |s: Option<&String>| {
            s.and_then(|s| super::time::parse_rfc3339(s))
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs())
        };
        Window {
            start: at(valid.and_then(|v| v.start.as_ref())).unwrap_or(0),
            end: at(valid.and_then(|v| v.end.as_ref())),
        }
    }

    fn holds(&self, at: u64) -> bool {
        at >= self.start && self.end.is_none_or(|end| at <= end)
    }
}

/// Verifies `bundle` (its JSON bytes) against `root` for what it must be
/// `about`: an artifact's digest, or a git commit (then the signature is
/// checked over the bundle's own digest or envelope, and the certificate
/// must name that commit and repository); `what` names the bundle in
/// messages. Offline.
pub fn verify(
    what: &str,
    bundle: &[u8],
    about: impl Into<About>,
    root: &TrustedRoot,
) -> Result<Verified, SigstoreError> {
    let about = about.into();
    let bad = |reason: String| SigstoreError::BadBundle {
        what: what.to_owned(),
        reason,
    };
    let b: Bundle = serde_json::from_slice(bundle).map_err(|e| bad(e.to_string()))?;
    if !bundle::MEDIA_TYPES.contains(&b.media_type.as_str()) {
        return Err(bad(format!("media type {:?}", b.media_type)));
    }
    let m = &b.verification_material;
    if m.public_key.is_some() {
        return Err(bad(
            "it is signed with a key, not a Fulcio certificate".into()
        ));
    }
    let leaf_b64 = (m.certificate.as_ref())
        .or_else(|| m.x509_certificate_chain.as_ref()?.certificates.first())
        .ok_or_else(|| bad("it holds no certificate".into()))?;
    let leaf = cert::Leaf::parse(b64(&leaf_b64.raw_bytes).map_err(&bad)?).map_err(&bad)?;
    let [entry] = m.tlog_entries.as_slice() else {
        return Err(bad(format!(
            "it holds {} transparency log entries (expected one)",
            m.tlog_entries.len()
        )));
    };
    let logged = log::check_entry(entry, &root.logs).map_err(|reason| SigstoreError::Log {
        what: what.to_owned(),
        reason,
    })?;
    // Only the authorities that issued at the log's time.
    let chains: Vec<&[Vec<u8>]> = (root.chains.iter())
        .filter(|(_, window)| window.holds(logged.integrated_time))
        .map(|(chain, _)| chain.as_slice())
        .collect();
    leaf.chains_to(&chains, logged.integrated_time)
        .map_err(|reason| SigstoreError::Chain {
            what: what.to_owned(),
            at: show_time(logged.integrated_time),
            reason,
        })?;
    let artifact = match &about {
        About::Artifact(digest) => Some(digest),
        About::Commit { .. } => None,
    };
    let signed = check_content(what, &b, &leaf, artifact)?;
    check_body(entry, &leaf, &signed).map_err(|reason| SigstoreError::Log {
        what: what.to_owned(),
        reason: format!("its log entry does not record this signature: {reason}"),
    })?;
    if let About::Commit { repository, commit } = &about {
        check_commit(what, &leaf.identity, repository, commit)?;
    }
    Ok(Verified {
        identity: leaf.identity.identity,
        issuer: leaf.identity.issuer,
        log_index: logged.log_index,
        integrated_time: logged.integrated_time,
        source_repository: leaf.identity.source_repository,
        source_commit: leaf.identity.source_commit,
    })
}

/// A bundle about a git commit: the certificate's source commit must be
/// `commit` and its source repository `repository` (compared without
/// ASCII case, a trailing `/` or `.git`: GitHub's names are
/// case-insensitive).
fn check_commit(
    what: &str,
    identity: &cert::Identity,
    repository: &str,
    commit: &str,
) -> Result<(), SigstoreError> {
    let bare = |r: &str| {
        let r = r.trim_end_matches('/');
        r.strip_suffix(".git").unwrap_or(r).to_ascii_lowercase()
    };
    let found_repo = identity.source_repository.as_deref();
    let found_commit = identity.source_commit.as_deref();
    let same = found_repo.is_some_and(|r| bare(r) == bare(repository))
        && found_commit.is_some_and(|c| c.eq_ignore_ascii_case(commit));
    if same {
        return Ok(());
    }
    Err(SigstoreError::Commit {
        what: what.to_owned(),
        expected: format!("the locked commit {commit} of {repository}"),
        found: format!(
            "commit {} of {}",
            found_commit.unwrap_or("(none named)"),
            found_repo.unwrap_or("(no repository named)")
        ),
    })
}

/// What the bundle's content signed, for the log entry to match.
struct Signed {
    signature: Vec<u8>,
    /// hashedrekord: the artifact's digest; DSSE: the payload's sha256.
    digest: Vec<u8>,
}

/// The signature over the bundle's content, and (`artifact`: `Some`) that
/// the content is about that artifact; `None`: about a commit, which the
/// certificate names (`check_commit`), so any subject is taken.
fn check_content(
    what: &str,
    b: &Bundle,
    leaf: &cert::Leaf,
    artifact: Option<&ArtifactDigest>,
) -> Result<Signed, SigstoreError> {
    let bad = |reason: String| SigstoreError::BadBundle {
        what: what.to_owned(),
        reason,
    };
    let sig_err = |reason: &str| SigstoreError::Signature {
        what: what.to_owned(),
        reason: reason.to_owned(),
    };
    let subject = |artifact: &ArtifactDigest, found: String| SigstoreError::Subject {
        what: what.to_owned(),
        expected: artifact.show(),
        found,
    };
    match (&b.message_signature, &b.dsse_envelope) {
        (Some(ms), None) => {
            let digest = b64(&ms.message_digest.digest).map_err(&bad)?;
            let algorithm = match ms.message_digest.algorithm.as_str() {
                "SHA2_256" => "sha256",
                "SHA2_512" => "sha512",
                other => return Err(bad(format!("message digest algorithm {other}"))),
            };
            if let Some(artifact) = artifact
                && (algorithm != artifact.name() || digest != artifact.bytes())
            {
                return Err(subject(
                    artifact,
                    format!("{algorithm}:{}", hex::encode(&digest)),
                ));
            }
            let signature = b64(&ms.signature).map_err(&bad)?;
            if !leaf.key.verifies_digest(&digest, &signature) {
                return Err(sig_err("the certificate's key did not sign this digest"));
            }
            Ok(Signed { signature, digest })
        }
        (None, Some(env)) => {
            let payload = b64(&env.payload).map_err(&bad)?;
            let [one] = env.signatures.as_slice() else {
                return Err(bad(
                    "its envelope holds more or fewer than one signature".into()
                ));
            };
            let signature = b64(&one.sig).map_err(&bad)?;
            if !leaf
                .key
                .verifies(&pae(&env.payload_type, &payload), &signature)
            {
                return Err(sig_err(
                    "the certificate's key did not sign this envelope (DSSE PAE)",
                ));
            }
            if env.payload_type != "application/vnd.in-toto+json" {
                return Err(bad(format!("envelope payload type {}", env.payload_type)));
            }
            let statement: bundle::Statement =
                serde_json::from_slice(&payload).map_err(|e| bad(format!("its statement: {e}")))?;
            if !statement.kind.starts_with("https://in-toto.io/Statement/") {
                return Err(bad(format!("statement type {}", statement.kind)));
            }
            if let Some(artifact) = artifact {
                let hex_digest = hex::encode(artifact.bytes());
                let named = (statement.subject.iter()).any(|s| {
                    s.digest
                        .get(artifact.name())
                        .is_some_and(|d| d.eq_ignore_ascii_case(&hex_digest))
                });
                if !named {
                    let found: Vec<String> = (statement.subject.iter())
                        .flat_map(|s| s.digest.iter().map(|(k, v)| format!("{k}:{v}")))
                        .collect();
                    return Err(subject(
                        artifact,
                        format!("the subjects {}", found.join(", ")),
                    ));
                }
            }
            Ok(Signed {
                signature,
                digest: Sha256::digest(&payload).to_vec(),
            })
        }
        _ => Err(bad(
            "it must hold either a message signature or a DSSE envelope".into(),
        )),
    }
}

/// DSSE's pre-authentication encoding.
pub fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {} {} ",
        payload_type.len(),
        payload_type,
        payload.len()
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// The log entry's body must record the bundle's signature, certificate
/// and digest (hashedrekord 0.0.1, dsse 0.0.1, intoto 0.0.2).
fn check_body(entry: &bundle::TlogEntry, leaf: &cert::Leaf, signed: &Signed) -> Result<(), String> {
    let body: serde_json::Value = serde_json::from_slice(&b64(&entry.canonicalized_body)?)
        .map_err(|e| format!("its body is not JSON: {e}"))?;
    let kind = (
        entry.kind_version.kind.as_str(),
        entry.kind_version.version.as_str(),
    );
    if body["kind"] != kind.0 || body["apiVersion"] != kind.1 {
        return Err("its body is of another kind than the entry says".into());
    }
    let spec = &body["spec"];
    let str_at = |v: &serde_json::Value| v.as_str().map(str::to_owned).unwrap_or_default();
    let cert_of = |v: &serde_json::Value| {
        b64(&str_at(v))
            .ok()
            .and_then(|pem| cert::pem_certificate(&pem))
    };
    let (sig_ok, cert_ok, digest) = match kind {
        ("hashedrekord", "0.0.1") => (
            b64(&str_at(&spec["signature"]["content"])).ok() == Some(signed.signature.clone()),
            cert_of(&spec["signature"]["publicKey"]["content"]) == Some(leaf.der.clone()),
            str_at(&spec["data"]["hash"]["value"]),
        ),
        ("dsse", "0.0.1") => {
            let sigs = spec["signatures"].as_array().cloned().unwrap_or_default();
            let one = sigs
                .iter()
                .find(|s| b64(&str_at(&s["signature"])).ok() == Some(signed.signature.clone()));
            (
                one.is_some(),
                one.is_some_and(|s| cert_of(&s["verifier"]) == Some(leaf.der.clone())),
                str_at(&spec["payloadHash"]["value"]),
            )
        }
        ("intoto", "0.0.2") => {
            let content = &spec["content"];
            let sigs = (content["envelope"]["signatures"].as_array())
                .cloned()
                .unwrap_or_default();
            // intoto 0.0.2 keeps the signature base64-encoded twice.
            let one = sigs.iter().find(|s| {
                let once = b64(&str_at(&s["sig"])).ok();
                let twice = once
                    .as_deref()
                    .and_then(|o| std::str::from_utf8(o).ok())
                    .and_then(|t| b64(t).ok());
                twice.as_ref() == Some(&signed.signature)
                    || once.as_ref() == Some(&signed.signature)
            });
            (
                one.is_some(),
                one.is_some_and(|s| cert_of(&s["publicKey"]) == Some(leaf.der.clone())),
                str_at(&content["payloadHash"]["value"]),
            )
        }
        (k, v) => return Err(format!("log entries of kind {k} {v} are not read")),
    };
    if !sig_ok {
        return Err("it names another signature".into());
    }
    if !cert_ok {
        return Err("it names another certificate".into());
    }
    if !digest.eq_ignore_ascii_case(&hex::encode(&signed.digest)) {
        return Err("it names another digest".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_whole_strings() {
        let id = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
        assert!(matches(id, id));
        assert!(matches("https://github.com/acme/skills/*", id));
        assert!(matches("*@refs/heads/main", id));
        assert!(matches("https://github.com/acme/*/release.yml@*", id));
        assert!(!matches("https://github.com/acme/skill", id));
        assert!(!matches("https://github.com/evil/*", id));
        assert!(!matches("*@refs/heads/mai", id));
    }

    #[test]
    fn the_shipped_root_parses() {
        let root = TrustedRoot::shipped();
        assert!(!root.chains.is_empty() && !root.logs.is_empty());
    }
}
