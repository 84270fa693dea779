//! The index kind's **prove** step (docs/sources.md#index): the lock's
//! index is one the declared source publishes; a verified (signed, when the
//! source pins keys) copy of it vouches (the snapshot the lock names, from
//! the cache; else the current index; else the versioned snapshot the
//! registry keeps); the entry it lists is the locked one: format, URL,
//! artifact digest, and the tree that artifact (or file list) made.
//!
//! No lock field is trusted on its own. `index-digest` only says where to
//! look; the snapshot found there is verified again. `signer` is a record:
//! what is reported as signed is what was verified. Cost: one signature
//! check and one index parse per distinct snapshot (memoised for the run),
//! then a lookup per skill.

use std::rc::Rc;

use url::Url;

use super::format::{ArtifactType, EntryContent, ParsedIndex, parse_index};
use super::paths;
use super::resolve::{self as source, IndexSource};
use crate::digest::Digest;
use crate::net::fetch::Fetcher;
use crate::project::lock::{Format, LockedSkill, lock_text_to_url, same_lock_url};
use crate::project::manifest::SourceDecl;
use crate::sources::proof::{
    Declared, Proof, ProveContext, ProveError, SignedBy, VouchedBy, broken, check_signer_record,
};
use crate::store::snapshots::Snapshot;
use crate::store::unpacked::Unpacked;
use crate::trust::{self, TrustError};

/// This kind's name in the run's memo.
const KIND: &str = "index";

/// A verified index, shared by every entry it vouches for.
struct Voucher {
    digest: Digest,
    index: ParsedIndex,
    signed: Option<SignedBy>,
    by: VouchedBy,
}

/// The index links: the lock's index is one the declared source
/// publishes, a verified (signed, when pinned) copy of it vouches, and
/// the entry it lists is the locked one. `Ok(None)`: not provable
/// without reading the source, which this prover may not.
pub(super) fn prove_indexed(
    cx: &mut ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
    declared: &Declared,
    mut proof: Proof,
) -> Result<Option<Proof>, ProveError> {
    if declared.git_url.is_some() {
        return Err(broken(
            entry,
            "index",
            format!(
                "skills.lock says it comes from an index, but source `{}` ({}) is a git repository",
                entry.source, decl.url
            ),
        ));
    }
    let Some(source) = &declared.source else {
        return Ok(None);
    };
    let index_url = entry
        .index
        .as_deref()
        .and_then(|t| lock_text_to_url(cx.root, t))
        .ok_or_else(|| {
            broken(
                entry,
                "index",
                "skills.lock gives no usable index URL".into(),
            )
        })?;
    if !(source.url.iter().flat_map(super::resolve::candidates))
        .any(|c| same_lock_url(&c, &index_url))
    {
        return Err(broken(
            entry,
            "index",
            format!(
                "skills.lock reads its index from {index_url}, which is not where source `{}` ({}) publishes one",
                entry.source, decl.url
            ),
        ));
    }
    let Some(voucher) = voucher(cx, entry, source, &index_url)? else {
        return Ok(None);
    };
    check_signer_record(entry, voucher.signed.as_ref())?;
    proof.tree_recorded = check_listed(cx, entry, &voucher)?;
    proof.index_digest = Some(voucher.digest);
    proof.vouched_by = Some(voucher.by);
    proof.signed = voucher.signed.clone();
    let cache_root = cx.cache_root.clone();
    let fetcher = cx.fetcher();
    let refetch = |record: &_| match fetcher {
        Some(f) => crate::sources::publisher::refetch_url(f, record),
        None => Err("this run reads no sources".to_owned()),
    };
    let refetch: Option<crate::sources::publisher::Refetch<'_>> =
        fetcher.is_some().then_some(&refetch);
    let subject = entry
        .artifact
        .as_ref()
        .map(crate::trust::sigstore::About::digest);
    proof.publisher =
        match crate::sources::publisher::prove(refetch, &cache_root, entry, decl, subject) {
            Err(ProveError::Unproven { .. }) => return Ok(None),
            other => other?,
        };
    Ok(Some(proof))
}

/// The entry links: the vouching index lists the skill in the locked
/// format, at the locked URL, with the locked artifact digest, and the
/// cache's record of that artifact (if any) unpacks to the locked tree.
/// Returns whether that record was there.
fn check_listed(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    voucher: &Voucher,
) -> Result<bool, ProveError> {
    let vouching = describe(voucher, &entry.source);
    let listed = voucher.index.entry(&entry.name).ok_or_else(|| {
        broken(
            entry,
            "entry",
            format!("{vouching} lists no skill named `{}`", entry.name),
        )
    })?;
    let lock_url = entry
        .url
        .as_deref()
        .and_then(|t| lock_text_to_url(cx.root, t));
    match (&listed.content, entry.format) {
        (
            EntryContent::Artifact {
                url,
                digest,
                artifact,
            },
            Format::Archive | Format::SkillMd,
        ) => check_artifact(
            cx,
            entry,
            &vouching,
            lock_url.as_ref(),
            url,
            digest,
            artifact,
        ),
        (EntryContent::Files { files }, Format::Files) => {
            let folder = paths::file_url(&paths::index_dir(&voucher.index.url), &entry.name, "");
            if !lock_url.is_some_and(|u| same_lock_url(&u, &folder)) {
                return Err(broken(
                    entry,
                    "url",
                    format!(
                        "skills.lock reads its files from {}, but {vouching} serves them at {folder}",
                        entry.url.as_deref().unwrap_or("(none)")
                    ),
                ));
            }
            check_file_list(entry, &vouching, files, &cx.unpacked)
        }
        _ => Err(broken(
            entry,
            "entry",
            format!(
                "{vouching} publishes it as `{}`, but skills.lock says `{}`",
                listed.format_label(),
                entry.format.as_str()
            ),
        )),
    }
}

/// The verified index that vouches for `entry`: the snapshot it names,
/// else the source's current index or the registry's versioned snapshot.
fn voucher(
    cx: &mut ProveContext<'_>,
    entry: &LockedSkill,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Option<Rc<Voucher>>, ProveError> {
    let memo_key = format!(
        "{}\n{index_url}\n{:?}\n{:?}",
        entry.source, entry.index_digest, entry.index_version
    );
    if let Some(v) = cx.recalled::<Voucher>(KIND, &memo_key) {
        return Ok(Some(v));
    }
    let found = find_voucher(cx, entry, source, index_url)?;
    if let Some(v) = &found {
        cx.remember(KIND, memo_key, v.clone());
    }
    Ok(found)
}

/// Tries, in order: the snapshot the lock names (from the cache), the
/// source's current index, and the versioned snapshot the registry keeps
/// when the current index no longer is the locked one.
fn find_voucher(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Option<Rc<Voucher>>, ProveError> {
    if let Some(voucher) = cached_voucher(cx, entry, source, index_url)? {
        return Ok(Some(Rc::new(voucher)));
    }
    let Some(fetcher) = cx.fetcher() else {
        return Ok(None);
    };
    let current = current_voucher(cx, fetcher, entry, source, index_url)?;
    if entry.index_digest.is_none_or(|d| d == current.digest) {
        return Ok(Some(Rc::new(current)));
    }
    if let Some(voucher) = versioned_voucher(cx, fetcher, entry, source, index_url)? {
        return Ok(Some(Rc::new(voucher)));
    }
    // The lock's snapshot is gone: the current index must list the
    // same artifact (checked by the caller).
    Ok(Some(Rc::new(current)))
}

/// The snapshot the lock names, from the cache. `Ok(None)`: not cached,
/// or signed by a key no longer pinned (a rotation: the current index,
/// signed by the new key, may still vouch).
fn cached_voucher(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Option<Voucher>, ProveError> {
    let Some(digest) = entry.index_digest else {
        return Ok(None);
    };
    let Some(snapshot) = cx.snapshots.get(&digest) else {
        return Ok(None);
    };
    match check_snapshot(&snapshot, source, index_url) {
        Ok(voucher) => {
            check_version(entry, &voucher).map_err(|w| broken(entry, "snapshot", w))?;
            Ok(Some(voucher))
        }
        Err(SnapshotProblem::Trust(TrustError::UnknownKey { .. })) => Ok(None),
        Err(problem) => Err(broken(
            entry,
            "snapshot",
            format!("the index snapshot {digest} that skills.lock names {problem}"),
        )),
    }
}

/// The source's current index (verified, rollback and expiry checked,
/// and kept as a snapshot by `source::resolve`).
fn current_voucher(
    cx: &ProveContext<'_>,
    fetcher: &Fetcher,
    entry: &LockedSkill,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Voucher, ProveError> {
    let mut pinned = source.clone();
    pinned.url = Some(index_url.clone());
    let resolved =
        source::resolve(fetcher, &pinned, cx.now).map_err(|cause| ProveError::Source {
            skill: entry.name.clone(),
            source_name: entry.source.clone(),
            cause: Box::new(cause),
        })?;
    Ok(Voucher {
        digest: resolved.snapshot,
        signed: resolved.signer.as_ref().map(|s| SignedBy {
            key_id: s.key_id.clone(),
            version: s.version,
            expires: s.expires.clone(),
        }),
        index: resolved.index,
        by: VouchedBy::CurrentIndex,
    })
}

/// The versioned snapshot the registry keeps beside index.json, when it
/// is the one the lock names; kept in the cache once verified.
/// `Ok(None)`: the lock names no version, or the registry keeps no such
/// snapshot.
fn versioned_voucher(
    cx: &ProveContext<'_>,
    fetcher: &Fetcher,
    entry: &LockedSkill,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Option<Voucher>, ProveError> {
    let (Some(digest), Some(version)) = (entry.index_digest, entry.index_version) else {
        return Ok(None);
    };
    let Some(url) = versioned_url(index_url, version) else {
        return Ok(None);
    };
    let limit = fetcher.config().max_index_bytes;
    let auth = source.auth.as_ref();
    let Ok(body) = fetcher.get(&url, auth, limit) else {
        return Ok(None);
    };
    if Digest::of_bytes(&body.bytes) != digest {
        return Ok(None);
    }
    let signature = (!source.keys.is_empty())
        .then(|| fetcher.get(&source::signature_url(&url), auth, 64 * 1024))
        .and_then(Result::ok)
        .and_then(|b| String::from_utf8(b.bytes).ok());
    let snapshot = Snapshot {
        digest,
        bytes: body.bytes,
        signature,
    };
    match check_snapshot(&snapshot, source, index_url) {
        Ok(mut voucher) => {
            check_version(entry, &voucher).map_err(|w| broken(entry, "snapshot", w))?;
            voucher.by = VouchedBy::VersionedSnapshot;
            let _ = cx
                .snapshots
                .put(&snapshot.bytes, snapshot.signature.as_deref());
            Ok(Some(voucher))
        }
        Err(problem) => Err(broken(
            entry,
            "snapshot",
            format!("the registry's snapshot {url} {problem}"),
        )),
    }
}

/// An artifact entry's links: the locked digest and kind are the listed
/// ones, downloaded from the listed URL, and the cache's record of the
/// artifact (if any) unpacks to the locked tree. Returns whether that
/// record was there.
fn check_artifact(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    vouching: &str,
    lock_url: Option<&Url>,
    url: &Url,
    digest: &Digest,
    artifact: &ArtifactType,
) -> Result<bool, ProveError> {
    let kind_ok = matches!(
        (artifact, entry.format),
        (ArtifactType::Archive, Format::Archive) | (ArtifactType::SkillMd, Format::SkillMd)
    );
    if entry.artifact != Some(*digest) || !kind_ok {
        return Err(broken(
            entry,
            "artifact",
            format!(
                "artifact {} is not in {vouching}, which lists {digest} for it",
                entry
                    .artifact
                    .map(|d| d.to_string())
                    .unwrap_or_else(|| "(none)".into())
            ),
        ));
    }
    if !lock_url.is_some_and(|u| same_lock_url(u, url)) {
        return Err(broken(
            entry,
            "url",
            format!(
                "skills.lock downloads it from {}, but {vouching} serves it at {url}",
                entry.url.as_deref().unwrap_or("(none)")
            ),
        ));
    }
    match cx.unpacked.tree_of(digest) {
        Some(tree) if tree != entry.tree => Err(broken(
            entry,
            "tree",
            format!(
                "artifact {digest} unpacks to tree {tree}, but skills.lock says tree {}",
                entry.tree
            ),
        )),
        Some(_) => Ok(true),
        None => Ok(false),
    }
}

/// Verifies a snapshot as its source requires: with pinned keys, a
/// signature by one of them over exactly these bytes (expiry is not
/// enforced: an old snapshot proves what the key signed then).
fn check_snapshot(
    snapshot: &Snapshot,
    source: &IndexSource,
    index_url: &Url,
) -> Result<Voucher, SnapshotProblem> {
    let signed = if source.keys.is_empty() {
        None
    } else {
        let Some(signature) = &snapshot.signature else {
            return Err(SnapshotProblem::Unsigned);
        };
        let signer =
            trust::verify_snapshot(index_url.as_str(), &snapshot.bytes, signature, &source.keys)
                .map_err(SnapshotProblem::Trust)?;
        Some(SignedBy {
            key_id: signer.key_id,
            version: signer.version,
            expires: signer.expires,
        })
    };
    let index = parse_index(&snapshot.bytes, index_url)
        .map_err(|e| SnapshotProblem::Unreadable(e.to_string()))?;
    Ok(Voucher {
        digest: snapshot.digest,
        index,
        signed,
        by: VouchedBy::Snapshot,
    })
}

#[derive(Debug)]
enum SnapshotProblem {
    Unsigned,
    Trust(TrustError),
    Unreadable(String),
}

impl std::fmt::Display for SnapshotProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotProblem::Unsigned => f.write_str("has no signature, and its source pins a key"),
            SnapshotProblem::Trust(e) => write!(f, "fails its signature check: {e}"),
            SnapshotProblem::Unreadable(e) => write!(f, "is not a readable index: {e}"),
        }
    }
}

/// A v0.1 (`files[]`) entry's link to its tree: when the listing gives a
/// digest for every file, the tree those files make must be the locked one
/// (`Ok(true)`: proven from the listing). Otherwise this user's record of
/// what those files made when they were read must say the locked tree, or
/// the files are read again and must hash to it (`Ok(false)`): never taken
/// from the cache on the lock's word.
fn check_file_list(
    entry: &LockedSkill,
    vouching: &str,
    files: &[crate::sources::index::format::IndexFile],
    unpacked: &Unpacked,
) -> Result<bool, ProveError> {
    let mut hasher = crate::digest::TreeHasher::new();
    for f in files {
        let Some(d) = f.digest else {
            let key = Unpacked::files_key(files.iter().map(|f| &f.url));
            return match unpacked.tree_of(&key) {
                Some(tree) if tree != entry.tree => Err(broken(
                    entry,
                    "tree",
                    format!(
                        "the files {vouching} lists made tree {tree} when they were read, but skills.lock says tree {}",
                        entry.tree
                    ),
                )),
                Some(_) => Ok(true),
                None => Ok(false),
            };
        };
        hasher.add(f.path.clone(), d);
    }
    let listed = hasher.finish();
    if listed == entry.tree {
        return Ok(true);
    }
    Err(broken(
        entry,
        "tree",
        format!(
            "{vouching} lists files that make tree {listed}, but skills.lock says tree {}",
            entry.tree
        ),
    ))
}

/// The lock's `index-version` must be the version that was signed.
fn check_version(entry: &LockedSkill, voucher: &Voucher) -> Result<(), String> {
    match (&voucher.signed, entry.index_version) {
        (Some(s), Some(v)) if s.version != v => Err(format!(
            "is signed as version {}, but skills.lock says version {v}",
            s.version
        )),
        (None, Some(v)) => Err(format!(
            "is unsigned, but skills.lock says it is signed version {v}"
        )),
        _ => Ok(()),
    }
}

/// "the signed index of source `x` (version 3, key ABCD…)" or "the index of
/// source `x` (unsigned)".
fn describe(voucher: &Voucher, source: &str) -> String {
    match &voucher.signed {
        Some(s) => format!(
            "the signed index of source `{source}` (version {}, key {})",
            s.version, s.key_id
        ),
        None => format!("the index of source `{source}` (unsigned)"),
    }
}

/// `…/index.json` → `…/index.<version>.json`: the versioned snapshot
/// `skillpm publish` keeps beside the index.
pub fn versioned_url(index_url: &Url, version: u64) -> Option<Url> {
    let name = index_url.path_segments()?.next_back()?.to_owned();
    let stem = name.strip_suffix(".json")?;
    index_url.join(&format!("{stem}.{version}.json")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versioned_snapshots_sit_beside_the_index() {
        let u = Url::parse("https://r.example/.well-known/agent-skills/index.json").unwrap();
        assert_eq!(
            versioned_url(&u, 7).unwrap().as_str(),
            "https://r.example/.well-known/agent-skills/index.7.json"
        );
        let odd = Url::parse("https://r.example/skills").unwrap();
        assert!(versioned_url(&odd, 7).is_none());
    }
}
