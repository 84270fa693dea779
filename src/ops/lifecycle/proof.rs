//! The lifecycle's use of `provenance`: every lock entry is proven against
//! its declared source before anything of it is linked (install, update,
//! approve/enable, verify), and `list` shows as signed only what it verified
//! itself.

use std::collections::BTreeSet;

use super::Session;
use crate::project::lock::LockedSkill;
use crate::provenance::{Proof, ProveError, Prover, prove_offline};

/// Proves every entry of `skills`, reading sources as the session allows
/// (the cache first; the network only when a snapshot is missing and the
/// run is not offline). Returns the names whose artifact or commit has no
/// record of the tree it gave, so it must be unpacked again and hash to the
/// lock's tree. The first broken link fails the whole run.
pub(crate) fn prove_all(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
) -> anyhow::Result<BTreeSet<String>> {
    let mut recheck = BTreeSet::new();
    for (s, proof) in skills.iter().zip(prove_each(sess, skills, true)?) {
        let proof = proof?;
        let pinned_elsewhere = proof.artifact.is_some()
            || proof.commit.is_some()
            || proof.format == crate::project::lock::Format::Files;
        if pinned_elsewhere && !proof.tree_recorded {
            recheck.insert(s.name.clone());
        }
    }
    Ok(recheck)
}

/// Proves each entry on its own (one broken entry does not stop the
/// others). With `read_sources` false no socket is opened: sources are read
/// as `--offline` reads them, and an entry that cannot be proven so comes
/// back as an error that is not [`ProveError::Broken`].
pub(crate) fn prove_each(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
    read_sources: bool,
) -> anyhow::Result<Vec<Result<Proof, ProveError>>> {
    if !read_sources {
        return Ok(prove_offline(
            &sess.project.root,
            &sess.manifest,
            sess.store.root(),
            skills,
        ));
    }
    // Built only if a snapshot is missing from the cache.
    let ctx = sess.ctx;
    let make = move || crate::ops::source::fetcher(ctx).ok();
    let offline = ctx.offline;
    let git = move |decl: &crate::project::manifest::SourceDecl| {
        crate::git::GitOptions::new(offline, decl.token_env.as_deref()).ok()
    };
    let mut prover = Prover::new(
        &sess.project.root,
        &sess.manifest,
        sess.store.root(),
        Some(Box::new(make)),
    )
    .with_git(Box::new(git));
    Ok(prover.prove_all(skills))
}
