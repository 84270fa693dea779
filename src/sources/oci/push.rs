//! `skillpm publish DIR --oci oci://HOST/NAMESPACE`: one ToolHive-format
//! artifact per skill at `NAMESPACE/NAME`, reproducible (the archive of
//! `crate::publish::pack`, a config and manifest with no timestamps, JSON in
//! a fixed order), blobs uploaded only when the registry lacks them.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::io::Read as _;

use serde::Serialize;

use super::manifest::{
    ANNOTATION_DESCRIPTION, ANNOTATION_NAME, ANNOTATION_VERSION, Descriptor, ImageManifest,
    OCI_CONFIG, OCI_MANIFEST, SKILL_ARTIFACT, TAR_GZIP_LAYERS,
};
use super::reference::valid_tag;
use super::{OciError, OciRef, Registry};
use crate::digest::Digest;
use crate::publish::SkillSource;

/// The bytes of one skill's artifact.
#[derive(Debug, Clone)]
pub struct Built {
    pub config: Vec<u8>,
    pub layer: Vec<u8>,
    pub manifest: Vec<u8>,
}

impl Built {
    pub fn manifest_digest(&self) -> Digest {
        Digest::of_bytes(&self.manifest)
    }
    pub fn layer_digest(&self) -> Digest {
        Digest::of_bytes(&self.layer)
    }
}

/// One skill as published.
#[derive(Debug, Clone, Serialize)]
pub struct Pushed {
    pub name: String,
    /// `oci://HOST/NAMESPACE/NAME@sha256:…`
    pub reference: String,
    pub manifest: Digest,
    pub layer: Digest,
    pub tags: Vec<String>,
    /// Blobs whose bytes were sent (0 when the registry had them all).
    pub uploaded: usize,
}

/// Builds the artifact of `skill`: same files, same bytes.
pub fn build(skill: &SkillSource) -> std::io::Result<Built> {
    let layer = crate::publish::pack::tar_gz(&skill.files.files)?;
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(layer.as_slice()).read_to_end(&mut tar)?;
    let mut labels = BTreeMap::new();
    labels.insert(ANNOTATION_NAME.to_owned(), skill.name.clone());
    labels.insert(ANNOTATION_DESCRIPTION.to_owned(), skill.description.clone());
    if let Some(v) = &skill.version {
        labels.insert(ANNOTATION_VERSION.to_owned(), v.clone());
    }
    let config = serde_json::to_vec(&serde_json::json!({
        "config": { "Labels": labels },
        "rootfs": { "type": "layers", "diff_ids": [Digest::of_bytes(&tar).to_string()] },
    }))?;
    let descriptor = |media_type: &str, bytes: &[u8]| Descriptor {
        media_type: media_type.to_owned(),
        digest: Digest::of_bytes(bytes).to_string(),
        size: bytes.len() as u64,
        artifact_type: None,
        annotations: BTreeMap::new(),
    };
    let manifest = ImageManifest {
        schema_version: 2,
        media_type: Some(OCI_MANIFEST.to_owned()),
        artifact_type: Some(SKILL_ARTIFACT.to_owned()),
        config: descriptor(OCI_CONFIG, &config),
        layers: vec![descriptor(TAR_GZIP_LAYERS[0], &layer)],
        annotations: labels,
    };
    Ok(Built {
        config,
        layer,
        manifest: serde_json::to_vec(&manifest)?,
    })
}

/// The tags of a skill: its version (`metadata.version`, else `tag`), and `latest`.
pub fn tags_for(skill: &SkillSource, tag: Option<&str>) -> Result<Vec<String>, OciError> {
    let mut tags = Vec::new();
    if let Some(t) = skill.version.as_deref().or(tag) {
        if !valid_tag(t) {
            return Err(OciError::Reference {
                text: t.to_owned(),
                reason: format!(
                    "the version of `{}` cannot be an OCI tag (1-128 of A-Z, a-z, 0-9, `_`, `.`, `-`); pass --tag or change metadata.version",
                    skill.name
                ),
            });
        }
        tags.push(t.to_owned());
    }
    if !tags.iter().any(|t| t == "latest") {
        tags.push("latest".to_owned());
    }
    Ok(tags)
}

/// Pushes `built` to `NAMESPACE/NAME` under every tag. `pushed_blobs` maps
/// blobs sent earlier in this run to their repository, so a blob another
/// skill's repository has is mounted rather than sent again.
pub fn push(
    registry: &Registry<'_>,
    namespace: &OciRef,
    skill: &SkillSource,
    built: &Built,
    tags: &[String],
    pushed_blobs: &mut HashMap<Digest, String>,
) -> Result<Pushed, OciError> {
    let target = namespace.child(&skill.name);
    let repo = target.repository.as_str();
    let mut uploaded = 0;
    for bytes in [&built.config, &built.layer] {
        let digest = Digest::of_bytes(bytes);
        let from = pushed_blobs
            .get(&digest)
            .filter(|r| r.as_str() != repo)
            .cloned();
        if registry.push_blob(repo, &digest, bytes, from.as_deref())? {
            uploaded += 1;
        }
        pushed_blobs.insert(digest, repo.to_owned());
    }
    for tag in tags {
        registry.push_manifest(repo, tag, &built.manifest, OCI_MANIFEST)?;
    }
    let manifest = built.manifest_digest();
    Ok(Pushed {
        name: skill.name.clone(),
        reference: target.at_digest(manifest).to_string(),
        manifest,
        layer: built.layer_digest(),
        tags: tags.to_vec(),
        uploaded,
    })
}
