//! Sigstore bundles attached to an OCI artifact
//! (docs/provenance.md#bundles-on-oci-artifacts): what `cosign sign
//! --new-bundle-format`, `cosign attest` and `actions/attest-build-provenance`
//! (`push-to-registry: true`) push. Each is an image manifest whose
//! `subject` is the signed artifact, whose `artifactType` is a Sigstore
//! bundle media type, and whose one layer is the bundle's JSON. It is found
//! through the referrers API, or the referrers tag schema's `sha256-HEX`
//! index where the registry has no such API (`Registry::referrers`).

use super::manifest::{self, ManifestBody};
use super::{OciError, Registry};
use crate::digest::Digest;
use crate::trust::sigstore::{MAX_BUNDLE_BYTES, is_bundle_media_type};

/// More bundle referrers than this are not read (each costs two requests).
const MAX_BUNDLES: usize = 16;

/// A bundle found for an artifact: where (`oci://HOST/REPO@sha256:…` of
/// the referrer manifest) and its bytes (their digest checked).
pub struct BundleReferrer {
    pub at: String,
    pub bytes: Vec<u8>,
}

/// Every Sigstore bundle referring to `digest` in `repo` (none: empty).
pub fn bundles(
    registry: &Registry<'_>,
    repo: &str,
    digest: &Digest,
) -> Result<Vec<BundleReferrer>, OciError> {
    let referrers = registry.referrers(repo, digest)?;
    let mut found = Vec::new();
    for r in referrers
        .iter()
        .filter(|r| r.artifact_type.as_deref().is_some_and(is_bundle_media_type))
        .take(MAX_BUNDLES)
    {
        let at = super::client::parse_digest(&r.digest)?;
        found.push(BundleReferrer {
            at: registry.located(repo, &at),
            bytes: bundle_at(registry, repo, &at)?,
        });
    }
    Ok(found)
}

/// The bundle held by the referrer manifest `at` in `repo` (what the lock's
/// publisher record names, fetched again when the cache lost it).
pub fn bundle_at(registry: &Registry<'_>, repo: &str, at: &Digest) -> Result<Vec<u8>, OciError> {
    let (_, bytes, content_type) = registry.manifest_bytes(repo, &at.to_string())?;
    let what = registry.located(repo, at);
    let not_bundle = |reason: String| OciError::NotASkill {
        what: format!("{what} (a Sigstore bundle referrer)"),
        reason,
    };
    let ManifestBody::Image(m) =
        manifest::parse(&bytes, content_type.as_deref()).map_err(not_bundle)?
    else {
        return Err(not_bundle("it is an image index".into()));
    };
    let layer = (m.layers.iter())
        .find(|l| is_bundle_media_type(&l.media_type))
        .ok_or_else(|| not_bundle("it holds no layer of a Sigstore bundle media type".into()))?;
    if layer.size > MAX_BUNDLE_BYTES {
        return Err(OciError::TooLarge {
            what: format!("the Sigstore bundle in {what}"),
            size: layer.size,
            limit: MAX_BUNDLE_BYTES,
        });
    }
    registry.small_blob(repo, layer)
}
