//! The lifecycle's use of `provenance`: every lock entry is proven against
//! its declared source before anything of it is linked (install, update,
//! approve/enable, verify), and `list` shows as signed only what it verified
//! itself.

use std::collections::BTreeSet;

use super::session::Session;
use crate::project::lock::LockedSkill;
use crate::provenance::{Proof, ProveError, Prover, prove_offline};

/// Proves every entry of `skills`, reading sources as the session allows;
/// returns the names whose content must be read again
/// ([`Prover::prove_for_fetch`]).
pub(crate) fn prove_all(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
) -> anyhow::Result<BTreeSet<String>> {
    Ok(online_prover(sess)?.prove_for_fetch(skills)?)
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
    Ok(online_prover(sess)?.prove_all(skills))
}

/// A prover that reads sources through the session's fetcher (one view of
/// each source for the whole run) and its git settings.
fn online_prover<'s>(sess: &'s mut Session<'_>) -> anyhow::Result<Prover<'s>> {
    let fetcher = sess.fetcher()?.clone();
    Ok(Prover::online(
        &sess.project.root,
        &sess.manifest,
        sess.store.root(),
        fetcher,
        (sess.ctx.offline, sess.ctx.allow_http),
    )
    .with_lock(sess.lock.as_ref()))
}
