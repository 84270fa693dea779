//! The lifecycle's use of `provenance`: every lock entry is proven against
//! its declared source before anything of it is linked (install, update,
//! approve/enable, verify), and `list` shows as signed only what it verified
//! itself.

use std::collections::BTreeSet;

use super::Session;
use crate::project::lock::LockedSkill;
use crate::provenance::memo::{self, ProofMemo};
use crate::provenance::{Proof, ProveError, Prover, prove_offline};

/// Proves every entry of `skills`, reading sources as the session allows
/// (the cache first; the network only when a snapshot is missing and the
/// run is not offline). Returns the names whose artifact or commit has no
/// record of the tree it gave, so it must be unpacked again and hash to the
/// lock's tree. The first broken link (or unreadable source) fails the
/// whole run at once: no later entry is tried (docs/network.md: a source
/// that stays unreachable stops the run).
pub(crate) fn prove_all(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
) -> anyhow::Result<BTreeSet<String>> {
    // Index and folder entries this user proved exactly so before are not
    // proven again (docs/threat-model.md#remembered-proofs).
    let (cached, others): (Vec<&LockedSkill>, Vec<&LockedSkill>) =
        skills.iter().copied().partition(|s| memo::rememberable(s));
    let memo = (!cached.is_empty())
        .then(|| {
            ProofMemo::for_entries(
                &sess.project.root,
                &sess.manifest,
                sess.store.root(),
                &cached,
            )
        })
        .flatten();
    let to_prove: Vec<&LockedSkill> = match &memo {
        Some(m) if m.holds() => others,
        _ => skills.to_vec(),
    };
    let mut prover = online_prover(sess)?;
    let mut recheck = BTreeSet::new();
    for s in &to_prove {
        let proof = prover.prove(s)?.ok_or_else(|| ProveError::Unproven {
            skill: s.name.clone(),
        })?;
        // A v0.1 file list not proven from its listing is read again too.
        let pinned_elsewhere = proof.artifact.is_some()
            || proof.commit.is_some()
            || proof.format == crate::project::lock::Format::Files;
        if pinned_elsewhere && !proof.tree_recorded {
            recheck.insert(s.name.clone());
        }
    }
    if let Some(m) = memo
        && to_prove.len() == skills.len()
        && !cached.iter().any(|s| recheck.contains(&s.name))
    {
        m.remember();
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
    let mut prover = online_prover(sess)?;
    Ok(prover.prove_all(skills))
}

/// A prover that reads sources through the session's fetcher (one view of
/// each source for the whole run) and its git settings.
fn online_prover<'s>(sess: &'s mut Session<'_>) -> anyhow::Result<Prover<'s>> {
    let fetcher = sess.fetcher()?.clone();
    let make = move || Some(fetcher.clone());
    Ok(Prover::new(
        &sess.project.root,
        &sess.manifest,
        sess.store.root(),
        Some(Box::new(make)),
    )
    .with_git(git_options(sess.ctx.offline, sess.ctx.allow_http)))
}

/// How the prover reads a git source: as `candidate::git_options` does
/// (offline switch, the token bound to the source, `--allow-http`).
fn git_options<'a>(offline: bool, allow_http: bool) -> crate::provenance::chain::GitOptionsFor<'a> {
    Box::new(move |decl: &crate::project::manifest::SourceDecl| {
        let token = crate::source::bound_token_env(decl);
        crate::git::GitOptions::new(offline, token.as_deref())
            .ok()
            .map(|o| o.allowing_http(allow_http))
    })
}
