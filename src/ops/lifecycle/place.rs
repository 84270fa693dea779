//! The lifecycle's calls into the placement engine (`crate::placement`):
//! the open [`Session`] handed down as a [`PlacementSite`], notes to the printer.

use super::session::Session;
use crate::placement::{self, LinkChanges, Note, PlacementSite, Target};
use crate::project::lock::LockedSkill;
use crate::project::state::Placements;

/// `f` run with the placement engine's view of `sess`.
pub(crate) fn with_site<T>(sess: &Session<'_>, f: impl FnOnce(&PlacementSite<'_>) -> T) -> T {
    let ui = &sess.ctx.ui;
    let notes = |note: Note| match note {
        Note::Warn(message) => ui.warn(message),
        Note::Info(message) => ui.info(message),
    };
    f(&PlacementSite {
        root: &sess.project.root,
        manifest: &sess.manifest,
        state: &sess.state,
        store: &sess.store,
        env: &sess.env,
        policy: &sess.policy,
        keep_foreign: sess.ctx.keep_foreign,
        replace_foreign: sess.ctx.replace_foreign,
        save_choices: !sess.ctx.agents.is_empty() || sess.ctx.link_mode.is_some(),
        notes: &notes,
    })
}

/// Makes the agent folders hold exactly the links of `enabled`.
pub(crate) fn sync_links(
    sess: &Session<'_>,
    enabled: &[&LockedSkill],
) -> anyhow::Result<LinkChanges> {
    with_site(sess, |site| placement::sync_links(site, enabled))
}

/// The install policy (docs/policy.md) for `entries` of this project,
/// before anything of them is read from a source: exit 3 naming every
/// violation, nothing changed.
pub(crate) fn check_policy(sess: &Session<'_>, entries: &[&LockedSkill]) -> anyhow::Result<()> {
    with_site(sess, |site| placement::check_policy(site, entries))
}

/// The agent folders this project places into.
pub(crate) fn targets(sess: &Session<'_>) -> anyhow::Result<Vec<Target>> {
    with_site(sess, placement::targets)
}

/// What the state records for the places `targets` covers.
pub(crate) fn placements_for(sess: &Session<'_>, targets: &[Target]) -> Placements {
    with_site(sess, |site| placement::placements_for(site, targets))
}
