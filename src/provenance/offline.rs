//! Proving lock entries where no network may be opened: `list`, and the
//! load paths (`show`, `skillpm mcp`) that treat lock entries as approvals.
//! Sources are read as `--offline` reads them: `file://` registries from
//! disk, HTTP indexes from the cache's copies, snapshots from the cache.

use std::path::Path;

use super::chain::{Proof, ProveError, Prover};
use crate::fetch::{CacheDirs, FetchConfig, Fetcher};
use crate::project::lock::LockedSkill;
use crate::project::manifest::{Manifest, SourceDecl};
use crate::source::SourceSpec;

/// The repository a declared source names, when it is a git source (the
/// forms of docs/design.md#formats; a folder publishing `.well-known/` is an
/// index), and the folder inside it where its skills are looked for: the
/// spec's own subfolder joined with the source's `path` (`None`: the whole
/// repository), and the ref it declares (`None`: the default branch).
pub(crate) fn declared_git(decl: &SourceDecl, project_root: &Path) -> Option<DeclaredGit> {
    let text = match SourceSpec::parse(&decl.url, project_root).ok()? {
        SourceSpec::Git(text) => text,
        SourceSpec::Base(url)
            if url.scheme() == "file"
                && !url
                    .to_file_path()
                    .is_ok_and(|dir| dir.join(".well-known").is_dir()) =>
        {
            decl.url.clone()
        }
        _ => return None,
    };
    let spec = crate::git::parse_git_spec(&text, None, project_root)
        .ok()
        .flatten()?;
    Some(DeclaredGit {
        url: spec.url(),
        folder: spec.join_subpath(decl.path.as_deref().unwrap_or("")),
        reference: spec.reference.clone(),
    })
}

/// What [`declared_git`] finds in a declared git source.
pub(crate) struct DeclaredGit {
    pub url: String,
    pub folder: Option<String>,
    pub reference: Option<String>,
}

/// Proves each entry without opening a socket. An entry that cannot be
/// proven offline (its source's index is not cached) comes back as
/// `Err(ProveError::Source { .. })`; a forged one as `Err(ProveError::Broken)`.
pub fn prove_offline(
    project_root: &Path,
    manifest: &Manifest,
    cache_root: &Path,
    entries: &[&LockedSkill],
) -> Vec<Result<Proof, ProveError>> {
    let cache = cache_root.to_owned();
    let make = move || {
        let config = FetchConfig::from_env().ok()?;
        Fetcher::new(config, CacheDirs::new(&cache), true).ok()
    };
    Prover::new(project_root, manifest, cache_root, Some(Box::new(make))).prove_all(entries)
}
