//! Sigstore bundles served next to the archives (docs/provenance.md#publishing-with-github-attestations).
//! A workflow attests the archives `publish` wrote (`actions/attest-build-provenance`)
//! and puts each bundle beside its archive as `<archive>.sigstore.json`; the
//! next `publish` into the same site keeps every bundle that still verifies
//! for the archive it builds (same bytes: archives are reproducible) and
//! names it in the v0.2 index entry's `sigstore` field. A bundle for other
//! bytes (the skill changed since it was attested) is left out with a warning.

use std::path::Path;

use super::{BuiltSite, index};
use crate::trust::sigstore::{self, ArtifactDigest, TrustedRoot};

/// The bundle beside an archive of the site.
pub fn bundle_path(archive: &str) -> String {
    format!("{archive}.sigstore.json")
}

/// What [`attach_bundles`] did per skill.
#[derive(Debug, Default)]
pub struct Attached {
    /// Skills whose bundle is served and named.
    pub named: Vec<String>,
    /// Skills whose bundle in `out` does not verify for the new archive, and why.
    pub stale: Vec<(String, String)>,
}

/// Keeps the bundles `out` holds beside the archives that still verify
/// against `root` for the archive `built` makes, and names them in its index.
pub fn attach_bundles(built: &mut BuiltSite, out: &Path, root: &TrustedRoot) -> Attached {
    let mut attached = Attached::default();
    for skill in &built.skills {
        let path = bundle_path(&skill.archive.path);
        let Ok(bytes) = std::fs::read(out.join(&path)) else {
            continue;
        };
        let digest = ArtifactDigest::of(&skill.archive.digest);
        match sigstore::verify(&path, &bytes, &digest, root) {
            Ok(_) => {
                built.site.insert(path, bytes, false);
                attached.named.push(skill.name.clone());
            }
            Err(e) => attached.stale.push((skill.name.clone(), e.to_string())),
        }
    }
    if attached.named.is_empty() {
        return attached;
    }
    let index_path = super::site::index_path();
    let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(built.index_bytes()) else {
        return attached;
    };
    if let Some(entries) = doc["skills"].as_array_mut() {
        for entry in entries {
            let name = entry["name"].as_str().unwrap_or_default().to_owned();
            if attached.named.contains(&name) {
                // Relative to the index, like the entry's `url`.
                entry["sigstore"] = bundle_path(&format!("{name}.tar.gz")).into();
            }
        }
    }
    built.site.insert(index_path, index::to_bytes(&doc), false);
    attached
}
