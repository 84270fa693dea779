//! Who published an index entry (docs/provenance.md#sigstore-bundles): a
//! source that declares `identity` and `issuer` in skills.toml takes only
//! artifacts whose Sigstore bundle (the entry's `sigstore` URL) verifies
//! against Sigstore's trusted root and names that publisher. Resolving
//! verifies the bundle and keeps it in `<cache>/sigstore/` under the
//! sha256 of its bytes; the lock records the publisher and that digest;
//! every later proof verifies the kept bundle again, offline, against the
//! lock's artifact digest and skills.toml's identity.

use std::path::{Path, PathBuf};

use url::Url;

use crate::digest::Digest;
use crate::net::fetch::{Auth, Fetcher};
use crate::project::lock::{LockedSkill, Publisher};
use crate::project::manifest::SourceDecl;
use crate::sources::proof::{ProveError, broken};
use crate::trust::sigstore::{self, ArtifactDigest, SigstoreError, TrustedRoot, Verified};

/// The most bytes a bundle may have (real ones are 5 to 20 KB).
pub const MAX_BUNDLE_BYTES: u64 = 1024 * 1024;

/// Where the bundle of sha256 `digest` is kept.
pub fn kept_path(cache_root: &Path, digest: &Digest) -> PathBuf {
    cache_root
        .join(crate::cache::layout::SIGSTORE)
        .join(digest.file_name())
}

/// The trusted root this machine uses: the one `skillpm trust update`
/// refreshed in the state folder, else the one shipped.
pub fn trusted_root() -> Result<TrustedRoot, SigstoreError> {
    TrustedRoot::load(crate::cache::state_root().as_deref())
}

/// At resolve: the bundle at `url` (the entry's `sigstore`), verified for
/// `artifact` and held to what `decl` expects, kept in the cache. `None`
/// when the source declares no publisher.
pub fn attest(
    fetcher: &Fetcher,
    auth: Option<&Auth>,
    cache_root: &Path,
    decl: &SourceDecl,
    skill: &str,
    url: Option<&Url>,
    artifact: &Digest,
) -> anyhow::Result<Option<(Publisher, Verified)>> {
    let Some(expected) = decl.expected_publisher() else {
        return Ok(None);
    };
    let what = format!("`{skill}` of source `{}`", decl.name);
    let Some(url) = url else {
        return Err(expected
            .missing(
                &what,
                "its index entry carries no Sigstore bundle (no `sigstore` URL)",
            )
            .into());
    };
    let body = fetcher.get(url, auth, MAX_BUNDLE_BYTES)?;
    let root = trusted_root()?;
    let verified = sigstore::verify(
        &format!("{what}: the bundle {url}"),
        &body.bytes,
        &ArtifactDigest::of(artifact),
        &root,
    )?;
    expected.check(&what, &verified)?;
    let digest = Digest::of_bytes(&body.bytes);
    let path = kept_path(cache_root, &digest);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // Content-addressed: a kept bundle proves itself, so no MAC is needed.
    crate::fs::write_atomic(&path, &body.bytes)?;
    let publisher = Publisher {
        identity: verified.identity.clone(),
        issuer: verified.issuer.clone(),
        log_index: verified.log_index,
        bundle: digest,
        url: url.to_string(),
    };
    Ok(Some((publisher, verified)))
}

/// At every proof: the lock's publisher record against skills.toml. A
/// source that declares a publisher needs one in the lock, whose kept
/// bundle (or the bundle at its URL, when this run may read sources and
/// its bytes have the recorded digest) verifies for the locked artifact and
/// names the declared publisher. `Ok(None)`: the source declares none.
pub fn prove(
    fetcher: Option<&Fetcher>,
    cache_root: &Path,
    entry: &LockedSkill,
    decl: &SourceDecl,
) -> Result<Option<Verified>, ProveError> {
    let Some(expected) = decl.expected_publisher() else {
        return Ok(None);
    };
    let what = format!("`{}` of source `{}`", entry.name, decl.name);
    let refuse = |e: SigstoreError| broken(entry, "publisher", e.to_string());
    let Some(record) = &entry.publisher else {
        return Err(refuse(expected.missing(
            &what,
            "skills.lock records no publisher for it; `skillpm update` verifies its Sigstore bundle and records one",
        )));
    };
    let Some(artifact) = &entry.artifact else {
        return Err(broken(
            entry,
            "publisher",
            "skills.lock records a publisher but no artifact digest it was proven for".into(),
        ));
    };
    let bytes = kept_bundle(fetcher, cache_root, record)
        .ok_or_else(|| ProveError::Unproven {
            skill: entry.name.clone(),
        })?
        .map_err(|what| broken(entry, "publisher", what))?;
    let root = trusted_root().map_err(refuse)?;
    let verified = sigstore::verify(
        &format!("{what}: the bundle {}", record.url),
        &bytes,
        &ArtifactDigest::of(artifact),
        &root,
    )
    .map_err(refuse)?;
    expected.check(&what, &verified).map_err(refuse)?;
    if (
        record.identity.as_str(),
        record.issuer.as_str(),
        record.log_index,
    ) != (
        verified.identity.as_str(),
        verified.issuer.as_str(),
        verified.log_index,
    ) {
        return Err(broken(
            entry,
            "publisher",
            format!(
                "skills.lock records {} (issuer {}, log entry {}), but its bundle says {} (issuer {}, log entry {})",
                record.identity,
                record.issuer,
                record.log_index,
                verified.identity,
                verified.issuer,
                verified.log_index
            ),
        ));
    }
    Ok(Some(verified))
}

/// The bundle the lock names: kept in the cache, else read from its URL
/// (and kept). `None`: not kept and this run may not read sources.
fn kept_bundle(
    fetcher: Option<&Fetcher>,
    cache_root: &Path,
    record: &Publisher,
) -> Option<Result<Vec<u8>, String>> {
    let path = kept_path(cache_root, &record.bundle);
    if let Ok(bytes) = std::fs::read(&path)
        && Digest::of_bytes(&bytes) == record.bundle
    {
        return Some(Ok(bytes));
    }
    let fetcher = fetcher?;
    let fetched = Url::parse(&record.url)
        .map_err(|e| {
            format!(
                "skills.lock's bundle URL {} does not parse: {e}",
                record.url
            )
        })
        .and_then(|url| {
            fetcher
                .get(&url, None, MAX_BUNDLE_BYTES)
                .map_err(|e| format!("cannot read its Sigstore bundle: {e}"))
        });
    Some(fetched.and_then(|body| {
        let found = Digest::of_bytes(&body.bytes);
        if found != record.bundle {
            return Err(format!(
                "skills.lock names Sigstore bundle {}, but {} serves {found}",
                record.bundle, record.url
            ));
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::fs::write_atomic(&path, &body.bytes);
        Ok(body.bytes)
    }))
}
