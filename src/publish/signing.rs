//! Signing a built site's index: the version it gets, the previous
//! signature kept when it still covers the same bytes, and the versioned
//! snapshots every earlier version left.

use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use super::sign::{self, SigningKey, TrustedComment};
use super::site::{self, PreviousSite};
use super::{BuiltSite, PublishError};

/// How the index was signed (`publish --json`'s `signature`).
#[derive(Debug, Serialize)]
pub struct SignatureReport {
    pub path: String,
    pub key_id: String,
    pub public_key: String,
    pub version: u64,
    pub expires: Option<String>,
    pub reused: bool,
}

/// Signs the v0.2.0 index into the site, choosing the version and keeping
/// the previous signature when it already covers these exact bytes.
///
/// `version` and `expires` are `--version` and `--expires`; `shown` is how
/// `out` is named in `warn`'s note on a first signed version.
pub fn sign_index(
    built: &mut BuiltSite,
    key: &SigningKey,
    (version, expires): (Option<u64>, Option<SystemTime>),
    out: &Path,
    (shown, warn): (&Path, &dyn Fn(String)),
) -> Result<SignatureReport, PublishError> {
    let previous = PreviousSite::read(out);
    let index = built.index_bytes().to_vec();
    let same_index = previous.index.as_deref() == Some(index.as_slice());
    let published = previous.signature.as_deref().and_then(sign::signed_version);
    let version = choose_version(version, published, same_index, out, (shown, warn))?;
    let comment = TrustedComment { version, expires }.render();
    let kept = previous
        .signature
        .clone()
        .filter(|old| same_index && key.signed(&index, old, &comment));
    let reused = kept.is_some();
    let signature = match kept {
        Some(old) => old,
        None => key.sign(&index, &comment)?,
    };
    // Earlier versions' snapshots stay; this version's joins them.
    for (path, bytes) in previous.versioned {
        built.site.insert(path, bytes, false);
    }
    let versioned = site::versioned_index_path(version);
    built.site.insert(
        format!("{versioned}.minisig"),
        signature.clone().into_bytes(),
        false,
    );
    built.site.insert(versioned, index, false);
    built
        .site
        .insert(site::signature_path(), signature.into_bytes(), false);
    Ok(SignatureReport {
        path: site::signature_path(),
        key_id: key.key_id(),
        public_key: key.public_key(),
        version,
        expires: expires.map(sign::format_time),
        reused,
    })
}

/// The version the signature gets: `--version` when it is above the
/// published one (or equal for the same index), else the published one for
/// the same index and the next one for a changed index, 1 at first.
fn choose_version(
    version: Option<u64>,
    published: Option<u64>,
    same_index: bool,
    out: &Path,
    (shown, warn): (&Path, &dyn Fn(String)),
) -> Result<u64, PublishError> {
    match (version, published) {
        (Some(v), Some(p)) if v < p => Err(PublishError::VersionRollback {
            requested: v,
            published: p,
            next: p + 1,
            out: out.to_owned(),
        }),
        (Some(v), Some(p)) if v == p && !same_index => Err(PublishError::VersionReused {
            version: v,
            next: p + 1,
            out: out.to_owned(),
        }),
        (Some(v), _) => Ok(v),
        (None, Some(p)) if same_index => Ok(p),
        (None, Some(p)) => Ok(p + 1),
        (None, None) => {
            warn(format!(
                "{} holds no signed index, so this is version 1; if this registry was published \
                 before, pass --version above the served one, or clients refuse it as a rollback",
                shown.display()
            ));
            Ok(1)
        }
    }
}
