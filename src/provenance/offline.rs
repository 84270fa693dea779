//! Proving lock entries where no network may be opened: `list`, and the
//! load paths (`show`, `skillpm mcp`) that treat lock entries as approvals.
//! Sources are read as `--offline` reads them: `file://` registries from
//! disk, HTTP indexes from the cache's copies, snapshots from the cache.

use std::path::Path;

use super::chain::{Proof, ProveError, Prover};
use crate::net::fetch::{CacheDirs, FetchConfig, Fetcher};
use crate::project::lock::LockedSkill;
use crate::project::manifest::Manifest;

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
