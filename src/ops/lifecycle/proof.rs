//! The lifecycle's use of `provenance`: every lock entry is proven against
//! its declared source before anything of it is linked (install, update,
//! verify), and `list` shows as signed only what it verified itself.

use std::collections::BTreeSet;

use super::Session;
use super::candidate::git_spec_for;
use crate::project::lock::LockedSkill;
use crate::project::manifest::SourceDecl;
use crate::provenance::{Proof, ProveError, Prover};

/// Proves every entry of `skills`, reading sources as the session allows
/// (the cache first; the network only when a snapshot is missing and the
/// run is not offline). Returns the proofs, and the names whose artifact
/// has no record of what it unpacked to, so it must be unpacked again and
/// hash to the lock's tree. The first broken link fails the whole run.
pub(crate) fn prove_all(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
) -> anyhow::Result<(Vec<Proof>, BTreeSet<String>)> {
    let needs_source = skills.iter().any(|s| s.index.is_some());
    if needs_source {
        sess.fetcher()?;
    }
    let root = sess.project.root.clone();
    let git_url = |decl: &SourceDecl| git_url_of(decl, &root);
    let mut prover = Prover::new(
        &sess.project.root,
        &sess.manifest,
        sess.store.root(),
        sess.fetcher.as_ref(),
        &git_url,
    );
    let mut proofs = Vec::with_capacity(skills.len());
    let mut recheck = BTreeSet::new();
    for s in skills {
        // A fetcher is always given, so every entry is proven or refused.
        if let Some(proof) = prover.prove(s)? {
            if (proof.artifact.is_some() || proof.commit.is_some()) && !proof.tree_recorded {
                recheck.insert(s.name.clone());
            }
            proofs.push(proof);
        }
    }
    Ok((proofs, recheck))
}

/// Proves each entry on its own (one broken entry does not stop the
/// others). With `read_sources` false the cache alone is used and `Ok(None)`
/// means it cannot prove the entry (shown as unverified); otherwise sources
/// are read as the session allows.
pub(crate) fn prove_each(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
    read_sources: bool,
) -> anyhow::Result<Vec<Result<Option<Proof>, ProveError>>> {
    if read_sources && skills.iter().any(|s| s.index.is_some()) {
        sess.fetcher()?;
    }
    let root = sess.project.root.clone();
    let git_url = |decl: &SourceDecl| git_url_of(decl, &root);
    let fetcher = if read_sources {
        sess.fetcher.as_ref()
    } else {
        None
    };
    let mut prover = Prover::new(
        &sess.project.root,
        &sess.manifest,
        sess.store.root(),
        fetcher,
        &git_url,
    );
    Ok(skills.iter().map(|s| prover.prove(s)).collect())
}

fn git_url_of(decl: &SourceDecl, root: &std::path::Path) -> Option<String> {
    git_spec_for(&decl.url, root)
        .ok()
        .flatten()
        .map(|s| s.url())
}
