//! Skills in OCI registries (docs/hosting.md, "OCI registries"): a source
//! `oci://HOST/NAMESPACE` holds skill NAME at repository `NAMESPACE/NAME`;
//! `oci://HOST/NAMESPACE/NAME[:TAG|@sha256:…]` is one skill.
//!
//! A skill artifact is ToolHive's format: an image manifest (or an index,
//! whose first manifest is taken) with one tar+gzip layer holding the
//! skill's folder, SKILL.md at its root. The lock pins the manifest digest
//! (its `url` is `oci://HOST/REPO@sha256:…`) and the layer digest
//! (`artifact`); the layer is unpacked by the same strict unpacker as every
//! archive. With a cosign key pinned, the signature at tag
//! `sha256-<hex>.sig` must verify ([`cosign`]); with a publisher declared
//! (`identity`/`issuer`), a Sigstore bundle referring to the manifest must
//! ([`referrers`], docs/provenance.md#bundles-on-oci-artifacts).

pub mod auth;
pub mod client;
pub mod cosign;
pub mod kind;
pub mod manifest;
pub mod push;
pub mod reference;
pub mod referrers;

pub use auth::RegistryLogin;
pub use client::Registry;
pub use reference::OciRef;

use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::net::fetch::FetchError;

/// The scheme of OCI sources.
pub const SCHEME: &str = "oci://";

#[derive(Debug, thiserror::Error)]
pub enum OciError {
    #[error("{text:?} is not an OCI reference: {reason}")]
    Reference { text: String, reason: String },
    #[error("{what}: not found in the registry")]
    NotFound { what: String },
    #[error("{what} is not a skill artifact: {reason}")]
    NotASkill { what: String, reason: String },
    #[error("{registry} refused access to {repository} ({status}): {hint}")]
    Unauthorized {
        registry: String,
        repository: String,
        status: u16,
        hint: String,
    },
    #[error("credentials for {registry}: {reason}")]
    Credentials { registry: String, reason: String },
    #[error("registry {registry}: {reason}")]
    Protocol { registry: String, reason: String },
    #[error(
        "registry {registry} does not let clients list its repositories (`/v2/_catalog` answered {status}); name the skill instead: `skillpm add --source oci://{registry}/NAMESPACE NAME`"
    )]
    NoCatalog { registry: String, status: u16 },
    #[error("{what}: digest mismatch: expected {expected}, got {actual}; refused")]
    DigestMismatch {
        what: String,
        expected: String,
        actual: Digest,
    },
    #[error("{what}: {size} bytes, over the limit of {limit}; refused")]
    TooLarge { what: String, size: u64, limit: u64 },
    #[error("{what} is not supported")]
    Unsupported { what: String },
    #[error("{0}")]
    Signature(String),
    #[error("cannot read the cosign key {path}: {reason}")]
    CosignKey { path: String, reason: String },
    #[error(transparent)]
    Fetch(#[from] FetchError),
}

crate::classified!(OciError);
impl Classify for OciError {
    fn exit(&self) -> Exit {
        match self {
            OciError::Reference { .. }
            | OciError::Credentials { .. }
            | OciError::CosignKey { .. } => Exit::Usage,
            OciError::NotFound { .. } => Exit::NotFound,
            OciError::NotASkill { .. }
            | OciError::TooLarge { .. }
            | OciError::Unsupported { .. } => Exit::Unsafe,
            OciError::Unauthorized { .. }
            | OciError::Protocol { .. }
            | OciError::NoCatalog { .. } => Exit::Network,
            OciError::DigestMismatch { .. } | OciError::Signature(_) => Exit::Integrity,
            OciError::Fetch(e) => e.exit(),
        }
    }
}

/// A skill artifact resolved in a registry: which manifest, which layer.
#[derive(Debug, Clone)]
pub struct ResolvedArtifact {
    /// The repository (no tag).
    pub repo: OciRef,
    /// The tag asked for (`None` when asked by digest).
    pub tag: Option<String>,
    pub manifest: Digest,
    pub layer: manifest::Descriptor,
    /// `org.stacklok.skillet.skill.version`, when the publisher set it.
    pub version: Option<String>,
    /// `org.stacklok.skillet.skill.name` and `…description`, when set.
    pub name: Option<String>,
    pub description: Option<String>,
}

impl ResolvedArtifact {
    /// What the lock's `url` says: the repository at the manifest digest.
    pub fn pinned(&self) -> OciRef {
        self.repo.at_digest(self.manifest)
    }

    pub fn layer_digest(&self) -> Result<Digest, OciError> {
        client::parse_digest(&self.layer.digest)
    }
}

/// Resolves `reference` (tag, digest or `latest`) to a skill artifact.
pub fn resolve(registry: &Registry<'_>, reference: &OciRef) -> Result<ResolvedArtifact, OciError> {
    let pulled = registry.pull_manifest(&reference.repository, &reference.reference())?;
    let layer = pulled
        .manifest
        .skill_layer()
        .map_err(|reason| OciError::NotASkill {
            what: reference.to_string(),
            reason,
        })?
        .clone();
    client::parse_digest(&layer.digest)?;
    let annotation = |key: &str| pulled.manifest.annotations.get(key).cloned();
    let version = annotation(manifest::ANNOTATION_VERSION);
    let name = annotation(manifest::ANNOTATION_NAME);
    let description = annotation(manifest::ANNOTATION_DESCRIPTION);
    Ok(ResolvedArtifact {
        repo: reference.repo(),
        tag: reference.digest.is_none().then(|| reference.reference()),
        manifest: pulled.digest,
        layer,
        version,
        name,
        description,
    })
}
