//! The OCI and Docker manifest formats skillpm reads and writes
//! (OCI image-spec manifest and index; Docker schema 2 and manifest list).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
pub const OCI_INDEX: &str = "application/vnd.oci.image.index.v1+json";
pub const DOCKER_MANIFEST: &str = "application/vnd.docker.distribution.manifest.v2+json";
pub const DOCKER_LIST: &str = "application/vnd.docker.distribution.manifest.list.v2+json";
pub const OCI_CONFIG: &str = "application/vnd.oci.image.config.v1+json";
/// ToolHive's (skillet's) artifact type for a skill.
pub const SKILL_ARTIFACT: &str = "application/vnd.stacklok.skillet.skill.v1";
pub const TAR_GZIP_LAYERS: [&str; 2] = [
    "application/vnd.oci.image.layer.v1.tar+gzip",
    "application/vnd.docker.image.rootfs.diff.tar.gzip",
];
pub const SIMPLE_SIGNING: &str = "application/vnd.dev.cosign.simplesigning.v1+json";
pub const COSIGN_SIGNATURE: &str = "dev.cosignproject.cosign/signature";
pub const ANNOTATION_NAME: &str = "org.stacklok.skillet.skill.name";
pub const ANNOTATION_DESCRIPTION: &str = "org.stacklok.skillet.skill.description";
pub const ANNOTATION_VERSION: &str = "org.stacklok.skillet.skill.version";

/// Every manifest type asked for, in the `Accept` header.
pub const ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.docker.distribution.manifest.list.v2+json";

/// A content descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub media_type: String,
    pub digest: String,
    pub size: u64,
    /// A referrer's artifact type, as an image index of referrers lists it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// An image manifest (OCI or Docker schema 2: the same fields).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageManifest {
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
    pub config: Descriptor,
    pub layers: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// An image index or Docker manifest list.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageIndex {
    pub manifests: Vec<Descriptor>,
}

/// What a manifest body turned out to be.
pub enum ManifestBody {
    Image(ImageManifest),
    Index(ImageIndex),
}

/// Reads a manifest body; `content_type` is the server's (the body's own
/// `mediaType` wins when present).
pub fn parse(bytes: &[u8], content_type: Option<&str>) -> Result<ManifestBody, String> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Probe {
        media_type: Option<String>,
        manifests: Option<serde_json::Value>,
    }
    let probe: Probe =
        serde_json::from_slice(bytes).map_err(|e| format!("the manifest is not JSON: {e}"))?;
    let kind = probe
        .media_type
        .or_else(|| content_type.map(|c| c.split(';').next().unwrap_or("").trim().to_owned()))
        .unwrap_or_default();
    let is_index = kind == OCI_INDEX || kind == DOCKER_LIST || probe.manifests.is_some();
    if is_index {
        return serde_json::from_slice(bytes)
            .map(ManifestBody::Index)
            .map_err(|e| format!("the image index is malformed: {e}"));
    }
    if !(kind == OCI_MANIFEST || kind == DOCKER_MANIFEST || kind.is_empty()) {
        return Err(format!("`{kind}` is not an image manifest or index"));
    }
    serde_json::from_slice(bytes)
        .map(ManifestBody::Image)
        .map_err(|e| format!("the image manifest is malformed: {e}"))
}

impl ImageManifest {
    /// The one tar+gzip layer holding the skill; anything else is not a
    /// skill artifact.
    pub fn skill_layer(&self) -> Result<&Descriptor, String> {
        if let Some(t) = &self.artifact_type
            && t != SKILL_ARTIFACT
        {
            return Err(format!(
                "its artifact type is `{t}`, not a skill (`{SKILL_ARTIFACT}`)"
            ));
        }
        match self.layers.as_slice() {
            [one] if TAR_GZIP_LAYERS.contains(&one.media_type.as_str()) => Ok(one),
            [one] => Err(format!(
                "its layer is `{}`, not a tar+gzip skill layer",
                one.media_type
            )),
            many => Err(format!(
                "it has {} layers; a skill artifact has exactly one tar+gzip layer",
                many.len()
            )),
        }
    }
}
