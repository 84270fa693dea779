//! Where links go (the manifest's `[install] scope` and `agents`), and making
//! the roots match the set of skills that should be enabled: place or swap
//! links, remove the ones skillpm placed earlier and no longer wants, never
//! touch anything it did not make.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Serialize;

use super::Session;
use crate::error::{Exit, OpError};
use crate::link::{self, LinkKind, LinkState};
use crate::project::lock::LockedSkill;
use crate::project::manifest::Scope as ManifestScope;
use crate::project::state::PlacedLink;
use crate::roots::{self, Agent, Scope};

/// One skill root that gets links, and the agents that read it.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    pub scope: Scope,
    pub agents: Vec<Agent>,
    pub root: PathBuf,
}

pub(crate) fn scope_of(sess: &Session<'_>) -> Scope {
    match sess.manifest.install().scope {
        ManifestScope::Repo => Scope::Repo,
        ManifestScope::User => Scope::User,
        ManifestScope::Admin => Scope::Admin,
    }
}

/// The roots the manifest asks for, de-duplicated (in the repo scope the
/// shared `.agents/skills` folder serves both `agents` and `codex`).
pub(crate) fn targets(sess: &Session<'_>) -> anyhow::Result<Vec<Target>> {
    let scope = scope_of(sess);
    let mut out: Vec<Target> = Vec::new();
    for name in &sess.manifest.install().agents {
        let agent = Agent::parse(name).ok_or_else(|| {
            OpError::new(
                Exit::Usage,
                format!(
                    "{}: unknown agent `{name}` in [install] agents",
                    sess.manifest.path().display()
                ),
            )
        })?;
        let Some(root) = roots::root_dir(scope, agent, &sess.project.root, &sess.env) else {
            sess.ctx.ui.warn(format!(
                "agent `{agent}` has no skill folder in the {scope} scope; no links for it"
            ));
            continue;
        };
        match out.iter_mut().find(|t| t.root == root) {
            Some(t) => t.agents.push(agent),
            None => out.push(Target {
                scope,
                agents: vec![agent],
                root,
            }),
        }
    }
    Ok(out)
}

/// What a link sync did.
#[derive(Debug, Default, Serialize)]
pub struct LinkChanges {
    /// Links created or re-pointed.
    pub linked: Vec<PathBuf>,
    /// Places where a symlink was impossible and a copy stands in.
    pub copied: Vec<PathBuf>,
    /// Links of skills no longer enabled, removed.
    pub unlinked: Vec<PathBuf>,
}

/// Makes the roots hold exactly the links of `enabled` (approved skills).
/// Every place is inspected once, and anything there that skillpm did not
/// make fails the sync (exit 1, both paths named) before a link changes.
pub(crate) fn sync_links(
    sess: &Session<'_>,
    enabled: &[&LockedSkill],
) -> anyhow::Result<LinkChanges> {
    let targets = targets(sess)?;
    let mut plan = Vec::with_capacity(targets.len() * enabled.len());
    for t in &targets {
        for s in enabled {
            let dest = t.root.join(&s.name);
            let entry = sess.store.entry_path(&s.tree);
            let before = link::inspect(&dest)?;
            if let LinkState::Foreign { what } = before {
                return Err(link::LinkError::Conflict {
                    path: dest,
                    what,
                    wanted: entry,
                }
                .into());
            }
            plan.push((t, *s, dest, entry, before));
        }
    }
    let prefer = preferred_kind();
    let mut changes = LinkChanges::default();
    let mut placed = Vec::with_capacity(plan.len());
    for (t, s, dest, entry, before) in plan {
        let kind = link::place_over(&t.root, &s.name, &before, &entry, s.tree, prefer)?;
        if before.digest() != Some(s.tree) || !matches_kind(&before, kind) {
            changes.linked.push(dest.clone());
        }
        if kind == LinkKind::Copy {
            changes.copied.push(dest);
        }
        placed.push(PlacedLink {
            root: t.root.clone(),
            name: s.name.clone(),
        });
    }
    let keep: BTreeSet<&PlacedLink> = placed.iter().collect();
    for old in sess.state.placed_links(&sess.project.root) {
        if keep.contains(&old) {
            continue;
        }
        match link::unlink(&old.root, &old.name) {
            Ok(true) => changes.unlinked.push(old.path()),
            Ok(false) => {}
            Err(e) => sess.ctx.ui.warn(format!("left in place: {e}")),
        }
    }
    sess.state
        .record_links(&sess.project.root, placed)
        .map_err(|e| anyhow::anyhow!("cannot record the links placed: {e}"))?;
    if !changes.copied.is_empty() {
        sess.ctx.ui.warn(format!(
            "symlinks are not possible here; {} skill folder(s) were copied instead (kept in sync by `skillpm install`)",
            changes.copied.len()
        ));
    }
    Ok(changes)
}

fn matches_kind(state: &LinkState, kind: LinkKind) -> bool {
    matches!(
        (state, kind),
        (LinkState::Symlink { .. }, LinkKind::Symlink) | (LinkState::Copy { .. }, LinkKind::Copy)
    )
}

/// Symlinks unless `SKILLPM_LINK=copy` asks for copies (file systems or
/// sandboxes that do not follow links into the cache).
fn preferred_kind() -> LinkKind {
    match std::env::var("SKILLPM_LINK").as_deref() {
        Ok("copy") => LinkKind::Copy,
        _ => LinkKind::Symlink,
    }
}
