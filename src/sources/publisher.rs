//! Who published a skill (docs/provenance.md#sigstore-bundles): a source
//! that declares `identity` and `issuer` in skills.toml takes only
//! artifacts whose Sigstore bundle (an index entry's `sigstore` URL, an OCI
//! artifact's referrers) verifies against Sigstore's trusted root and names
//! that publisher. Resolving verifies the bundle and keeps it in
//! `<cache>/sigstore/` under the sha256 of its bytes; the lock records the
//! publisher and that digest; every later proof verifies the kept bundle
//! again, offline, against the digest the lock pins and skills.toml's
//! identity.

use std::path::{Path, PathBuf};

use url::Url;

use crate::digest::Digest;
use crate::net::fetch::{Auth, Fetcher};
use crate::project::lock::{LockedSkill, Publisher};
use crate::project::manifest::SourceDecl;
use crate::sources::proof::{ProveError, broken};
use crate::trust::sigstore::{self, About, MAX_BUNDLE_BYTES, SigstoreError, TrustedRoot, Verified};

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
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    let found = match url {
        Some(url) => vec![(
            url.to_string(),
            fetcher.get(url, auth, MAX_BUNDLE_BYTES)?.bytes,
        )],
        None => Vec::new(),
    };
    let why = "its index entry carries no Sigstore bundle (no `sigstore` URL)";
    let about = About::digest(artifact);
    let what = what(skill, decl);
    Ok(keep_verified(cache_root, decl, &what, found, &about, why)?)
}

/// For `search`: who published an index entry, as the bundle at `url`
/// says, verified for the digest the index lists (the artifact is not
/// downloaded; the digest pins it) and held to `expected` when the source
/// declares a publisher. Nothing is kept. `Err`: why it does not hold.
pub fn listed(
    fetcher: &Fetcher,
    auth: Option<&Auth>,
    expected: Option<&sigstore::Expected>,
    what: &str,
    url: &Url,
    artifact: &Digest,
) -> anyhow::Result<Verified> {
    let body = fetcher.get(url, auth, MAX_BUNDLE_BYTES)?;
    Ok(listed_bytes(
        expected,
        what,
        url.as_str(),
        &body.bytes,
        About::digest(artifact),
    )?)
}

/// [`listed`] for a bundle already read (`at`: where), about `about`.
pub fn listed_bytes(
    expected: Option<&sigstore::Expected>,
    what: &str,
    at: &str,
    bytes: &[u8],
    about: About,
) -> Result<Verified, SigstoreError> {
    let root = trusted_root()?;
    let verified = sigstore::verify(&format!("{what}: the bundle {at}"), bytes, about, &root)?;
    if let Some(expected) = expected {
        expected.check(what, &verified)?;
    }
    Ok(verified)
}

/// How a bundle's subject is named in messages: `` `skill` of source `name` ``.
pub fn what(skill: &str, decl: &SourceDecl) -> String {
    format!("`{skill}` of source `{}`", decl.name)
}

/// At resolve, for bundles a source kind found (`(where, bytes)`): the
/// first that verifies for `about` (an artifact, or a git commit) and names the publisher `decl`
/// expects, kept in the cache under the sha256 of its bytes. None found:
/// refused, saying `none_why`; none that holds: the first one's refusal.
/// `None` when the source declares no publisher.
pub fn keep_verified(
    cache_root: &Path,
    decl: &SourceDecl,
    what: &str,
    found: Vec<(String, Vec<u8>)>,
    about: &About,
    none_why: &str,
) -> Result<Option<(Publisher, Verified)>, SigstoreError> {
    let Some(expected) = decl.expected_publisher() else {
        return Ok(None);
    };
    if found.is_empty() {
        return Err(expected.missing(what, none_why));
    }
    let root = trusted_root()?;
    let mut first_refusal = None;
    for (at, bytes) in found {
        let verified = sigstore::verify(
            &format!("{what}: the bundle {at}"),
            &bytes,
            about.clone(),
            &root,
        )
        .and_then(|v| expected.check(what, &v).map(|()| v));
        let verified = match verified {
            Ok(v) => v,
            Err(e) => {
                first_refusal.get_or_insert(e);
                continue;
            }
        };
        let digest = Digest::of_bytes(&bytes);
        keep(cache_root, &digest, &bytes);
        let publisher = Publisher {
            identity: verified.identity.clone(),
            issuer: verified.issuer.clone(),
            log_index: verified.log_index,
            bundle: digest,
            url: at,
        };
        return Ok(Some((publisher, verified)));
    }
    Err(first_refusal.unwrap_or_else(|| expected.missing(what, none_why)))
}

/// Keeps a bundle in the cache. Content-addressed: a kept bundle proves
/// itself, so no MAC is needed; one not kept is fetched again.
fn keep(cache_root: &Path, digest: &Digest, bytes: &[u8]) {
    let path = kept_path(cache_root, digest);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::fs::write_atomic(&path, bytes);
}

/// Reads the bundle a lock's record names again, when the cache lost it:
/// each kind knows where its bundles live (`Err`: why it cannot).
pub type Refetch<'a> = &'a dyn Fn(&Publisher) -> Result<Vec<u8>, String>;

/// The bundle at a record's URL (index sources: an HTTP or file URL).
pub fn refetch_url(fetcher: &Fetcher, record: &Publisher) -> Result<Vec<u8>, String> {
    let url = Url::parse(&record.url).map_err(|e| {
        format!(
            "skills.lock's bundle URL {} does not parse: {e}",
            record.url
        )
    })?;
    fetcher
        .get(&url, None, MAX_BUNDLE_BYTES)
        .map(|body| body.bytes)
        .map_err(|e| format!("cannot read its Sigstore bundle: {e}"))
}

/// At every proof: the lock's publisher record against skills.toml. A
/// source that declares a publisher needs one in the lock, whose kept
/// bundle (or the bundle `refetch` reads again, when this run may read
/// sources and its bytes have the recorded digest) verifies for `subject`
/// (what the bundle is about: an index entry's artifact, an OCI
/// artifact's manifest, a git entry's commit) and names the declared
/// publisher. `Ok(None)`: the source declares none.
pub fn prove(
    refetch: Option<Refetch<'_>>,
    cache_root: &Path,
    entry: &LockedSkill,
    decl: &SourceDecl,
    subject: Option<About>,
) -> Result<Option<Verified>, ProveError> {
    let Some(expected) = decl.expected_publisher() else {
        return Ok(None);
    };
    let what = what(&entry.name, decl);
    let refuse = |e: SigstoreError| broken(entry, "publisher", e.to_string());
    let Some(record) = &entry.publisher else {
        return Err(refuse(expected.missing(
            &what,
            "skills.lock records no publisher for it; `skillpm update` verifies its Sigstore bundle and records one",
        )));
    };
    let Some(about) = subject else {
        return Err(broken(
            entry,
            "publisher",
            "skills.lock records a publisher but no artifact digest or commit it was proven for"
                .into(),
        ));
    };
    let bytes = kept_bundle(refetch, cache_root, record)
        .ok_or_else(|| ProveError::Unproven {
            skill: entry.name.clone(),
        })?
        .map_err(|what| broken(entry, "publisher", what))?;
    let root = trusted_root().map_err(refuse)?;
    let verified = sigstore::verify(
        &format!("{what}: the bundle {}", record.url),
        &bytes,
        about,
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

/// The bundle the lock names: kept in the cache, else read again with
/// `refetch` (and kept). `None`: not kept and this run may not read sources.
fn kept_bundle(
    refetch: Option<Refetch<'_>>,
    cache_root: &Path,
    record: &Publisher,
) -> Option<Result<Vec<u8>, String>> {
    let path = kept_path(cache_root, &record.bundle);
    if let Ok(bytes) = std::fs::read(&path)
        && Digest::of_bytes(&bytes) == record.bundle
    {
        return Some(Ok(bytes));
    }
    let refetch = refetch?;
    Some(refetch(record).and_then(|bytes| {
        let found = Digest::of_bytes(&bytes);
        if found != record.bundle {
            return Err(format!(
                "skills.lock names Sigstore bundle {}, but {} serves {found}",
                record.bundle, record.url
            ));
        }
        keep(cache_root, &record.bundle, &bytes);
        Ok(bytes)
    }))
}
