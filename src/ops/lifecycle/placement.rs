//! Where links go (the manifest's `[install] scope` and `agents`), and making
//! the roots match the set of skills that should be enabled: place or swap
//! links, remove the ones skillpm placed earlier and no longer wants, never
//! touch anything it did not make.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Serialize;

use super::Session;
use crate::error::{Exit, OpError};
use crate::link::{self, LinkKind, LinkMode, LinkState};
use crate::project::lock::LockedSkill;
use crate::project::state::PlacedLink;
use crate::roots::{self, Agent, Scope};

/// One skill root that gets links, and the agents that read it.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    pub scope: Scope,
    pub agents: Vec<Agent>,
    pub root: PathBuf,
}

/// The agents that get skills: `[install] agents` (where `--agent` was
/// recorded), else the shared `.agents/skills` folder plus every agent
/// detected in the project or the user's folders.
pub(crate) fn chosen_agents(sess: &Session<'_>) -> anyhow::Result<Vec<Agent>> {
    let origin = format!("[install] agents in {}", sess.manifest.path().display());
    let Some(names) = sess.manifest.install().agents.as_deref() else {
        return Ok(default_agents(&sess.project.root, &sess.env));
    };
    let mut out = Vec::new();
    for name in names {
        let agent = parse_agent(&origin, name)?;
        if !out.contains(&agent) {
            out.push(agent);
        }
    }
    Ok(out)
}

/// Records `--agent` and `--link-mode` as `[install] agents` and
/// `[install] link-mode` (in memory; saved once the links are placed), so
/// the next `install` keeps the same placements. Unknown ids fail here,
/// before anything changes.
pub(crate) fn apply_choices(
    ctx: &crate::ops::Context,
    manifest: &mut crate::project::Manifest,
) -> anyhow::Result<()> {
    if !ctx.agents.is_empty() {
        let mut ids: Vec<String> = Vec::new();
        for name in &ctx.agents {
            let agent = parse_agent("--agent", name)?;
            if !ids.iter().any(|i| i == agent.as_str()) {
                ids.push(agent.as_str().to_owned());
            }
        }
        if manifest.install().agents.as_deref() != Some(&ids[..]) {
            manifest.set_install_agents(&ids)?;
        }
    }
    if let Some(mode) = ctx.link_mode
        && manifest.install().link_mode != Some(mode)
    {
        manifest.set_install_link_mode(mode.as_str())?;
    }
    Ok(())
}

/// The agent `name` names; `origin` says where it was written.
fn parse_agent(origin: &str, name: &str) -> Result<Agent, OpError> {
    Agent::parse(name).ok_or_else(|| {
        OpError::new(
            Exit::Usage,
            format!("{origin}: unknown agent `{name}`; `skillpm agents` lists the known ids"),
        )
    })
}

/// `.agents/skills` plus the agents detected in `project` or the home folder.
pub fn default_agents(project: &std::path::Path, env: &roots::Env) -> Vec<Agent> {
    let detected = Agent::ALL
        .into_iter()
        .skip(1)
        .filter(|a| a.detected(project, env));
    std::iter::once(Agent::Agents).chain(detected).collect()
}

/// The roots the chosen agents read, one per distinct folder: agents that
/// share a folder (Codex, Cursor, Gemini CLI… all read `.agents/skills`)
/// share one placement.
pub(crate) fn targets(sess: &Session<'_>) -> anyhow::Result<Vec<Target>> {
    let scope = sess.manifest.install().scope.root_scope();
    let mut out: Vec<Target> = Vec::new();
    for agent in chosen_agents(sess)? {
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

/// `[install] link-mode` (where `--link-mode` was recorded), else `SKILLPM_LINK=copy`
/// (the older switch), else `auto`.
pub(crate) fn link_mode(sess: &Session<'_>) -> LinkMode {
    if let Some(mode) = sess.manifest.install().link_mode {
        return mode;
    }
    match std::env::var("SKILLPM_LINK").as_deref() {
        Ok("copy") => LinkMode::Copy,
        Ok("auto") => LinkMode::Auto,
        _ => LinkMode::Symlink,
    }
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
    /// Places another tool's folder holds, left alone (`import` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<PathBuf>,
}

impl LinkChanges {
    /// The human lines for `verb`'d paths: each one when there are a few,
    /// a count when there are many (`--json` lists them all; docs/output.md).
    pub fn write_paths(
        out: &mut dyn std::io::Write,
        verb: &str,
        paths: &[PathBuf],
    ) -> std::io::Result<()> {
        const LISTED: usize = 10;
        if paths.len() <= LISTED {
            for p in paths {
                writeln!(out, "  {verb} {}", p.display())?;
            }
            Ok(())
        } else {
            writeln!(out, "  {verb} {} places (`--json` lists them)", paths.len())
        }
    }
}

/// Makes the roots hold exactly the links of `enabled` (approved skills).
/// Every place is inspected once, and anything there that skillpm did not
/// make fails the sync (exit 1, both paths named) before a link changes.
pub(crate) fn sync_links(
    sess: &Session<'_>,
    enabled: &[&LockedSkill],
) -> anyhow::Result<LinkChanges> {
    let targets = targets(sess)?;
    let (plan, conflicts) = plan_links(sess, &targets, enabled)?;
    // Each agent folder is created once here, not once per link.
    for root in plan.iter().map(|(t, ..)| &t.root).collect::<BTreeSet<_>>() {
        link::ensure_root(root)?;
    }
    let mode = link_mode(sess);
    hash_before_placing(sess, &plan, mode)?;
    let mut changes = LinkChanges {
        conflicts,
        ..LinkChanges::default()
    };
    let kinds = place_all(&plan, mode)?;
    let mut placed = Vec::with_capacity(plan.len());
    for ((t, s, dest, _, before), kind) in plan.into_iter().zip(kinds) {
        let Some(kind) = kind else { continue };
        if before.digest() != Some(s.tree) || !matches_kind(&before, kind) {
            changes.linked.push(dest.clone());
        }
        if kind == LinkKind::Copy && mode == LinkMode::Symlink {
            changes.copied.push(dest);
        }
        placed.push(PlacedLink {
            root: t.root.clone(),
            name: s.name.clone(),
        });
    }
    unlink_unwanted(sess, &placed, &mut changes);
    if !sess.ctx.agents.is_empty() || sess.ctx.link_mode.is_some() {
        sess.manifest.save()?;
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

/// Store entries that no longer hash to their names, found before a
/// placement and moved aside (exit 3). `install` fetches them again.
#[derive(Debug, thiserror::Error)]
#[error(
    "the stored content of {} was modified (it no longer hashes to its name); moved it to {}\n  nothing was linked; run `skillpm install` to fetch it again from its source",
    names.join(", "),
    moved.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
)]
pub struct Tampered {
    pub names: Vec<String>,
    pub moved: Vec<PathBuf>,
}

impl crate::error::Classify for Tampered {
    fn exit(&self) -> Exit {
        Exit::Integrity
    }
}
crate::classified!(Tampered);

/// The cache is content, not authority (docs/threat-model.md): every tree
/// this run places is hashed by this run first (the store skips what this
/// run imported or hashed already). A place that already holds the tree
/// and is left as it is needs no hash. Nothing is placed when one entry
/// fails.
fn hash_before_placing(
    sess: &Session<'_>,
    plan: &[Planned<'_, '_>],
    mode: LinkMode,
) -> anyhow::Result<()> {
    let mut todo: Vec<&LockedSkill> = Vec::new();
    for (_, s, dest, entry, before) in plan {
        if !already_placed(before, s.tree, dest, entry, mode)
            && !todo.iter().any(|t| t.tree == s.tree)
        {
            todo.push(s);
        }
    }
    let store = &sess.store;
    let checked = super::parallel::map(&todo, |s| store.verify_hashed(&s.tree));
    let mut bad = Tampered {
        names: Vec::new(),
        moved: Vec::new(),
    };
    for (s, moved) in todo.iter().zip(checked) {
        if let Some(moved) = moved? {
            bad.names.push(format!("`{}`", s.name));
            bad.moved.push(moved);
        }
    }
    if bad.names.is_empty() {
        Ok(())
    } else {
        Err(bad.into())
    }
}

/// Whether `before` already stands for `tree` as `mode` would place it, so
/// the sync leaves it alone.
fn already_placed(
    before: &LinkState,
    tree: crate::digest::Digest,
    dest: &std::path::Path,
    entry: &std::path::Path,
    mode: LinkMode,
) -> bool {
    match before {
        LinkState::Symlink { target } => mode == LinkMode::Symlink && target == entry,
        LinkState::Copy {
            tree: Some(t),
            kind,
        } => {
            *t == tree
                && (*kind != LinkKind::Hardlink || link::hardlinks_current(dest, entry))
                && match mode {
                    LinkMode::Auto => true,
                    LinkMode::Symlink => false,
                    LinkMode::Hardlink => *kind == LinkKind::Hardlink,
                    LinkMode::Clone => *kind == LinkKind::Clone,
                    LinkMode::Copy => *kind == LinkKind::Copy,
                }
        }
        _ => false,
    }
}

/// One link to place: where, which skill, its path, the store entry it
/// shows, and what is there now.
type Planned<'t, 's> = (&'t Target, &'s LockedSkill, PathBuf, PathBuf, LinkState);

/// Every link `enabled` needs in every target, with what is there now. A
/// folder skillpm did not make is an error (exit 5), or, with
/// `keep_foreign`, left alone and returned as a conflict.
fn plan_links<'t, 's>(
    sess: &Session<'_>,
    targets: &'t [Target],
    enabled: &[&'s LockedSkill],
) -> anyhow::Result<(Vec<Planned<'t, 's>>, Vec<PathBuf>)> {
    let places: Vec<(&Target, &LockedSkill)> = (targets.iter())
        .flat_map(|t| enabled.iter().map(move |s| (t, *s)))
        .collect();
    // Each place is inspected on its own (a copy is hashed again), in parallel.
    let states = super::parallel::map(&places, |(t, s)| {
        link::inspect_placed(&t.root.join(&s.name), s.tree)
    });
    let mut plan = Vec::with_capacity(places.len());
    let mut conflicts = Vec::new();
    for ((t, s), before) in places.into_iter().zip(states) {
        let dest = t.root.join(&s.name);
        let entry = sess.store.entry_path(&s.tree);
        let before = before?;
        if let LinkState::Foreign { what } = before {
            if sess.ctx.keep_foreign {
                conflicts.push(dest);
                continue;
            }
            return Err(link::LinkError::Conflict {
                path: dest,
                what,
                wanted: entry,
            }
            .into());
        }
        plan.push((t, s, dest, entry, before));
    }
    Ok((plan, conflicts))
}

/// Places every planned link in `mode`; returns the kind each became.
fn place_all(plan: &[Planned<'_, '_>], mode: LinkMode) -> anyhow::Result<Vec<Option<LinkKind>>> {
    // `auto` settles on one kind per root (one file system) at the root's
    // first placement, made alone; the rest of the root reuses it.
    let mut settled: Vec<(PathBuf, LinkKind)> = Vec::new();
    let mut kinds: Vec<Option<LinkKind>> = vec![None; plan.len()];
    if mode == LinkMode::Auto {
        for (i, (t, s, _, entry, before)) in plan.iter().enumerate() {
            if settled.iter().any(|(root, _)| *root == t.root) {
                continue;
            }
            let kind = link::place_auto(&t.root, &s.name, before, entry, s.tree)?;
            settled.push((t.root.clone(), kind));
            kinds[i] = Some(kind);
        }
    }
    // Every other place is independent: spread them over the cores (a
    // copy or hard-link pass is bound by file creation, like unpacking).
    let todo: Vec<usize> = (0..plan.len()).filter(|&i| kinds[i].is_none()).collect();
    let place_one = |&i: &usize| {
        let (t, s, _, entry, before) = &plan[i];
        let prefer = match mode {
            LinkMode::Symlink => LinkKind::Symlink,
            LinkMode::Hardlink => LinkKind::Hardlink,
            LinkMode::Clone => LinkKind::Clone,
            LinkMode::Copy => LinkKind::Copy,
            LinkMode::Auto => {
                let root_kind = settled
                    .iter()
                    .find(|(root, _)| *root == t.root)
                    .map(|(_, k)| *k);
                match root_kind {
                    Some(k) if !auto_keeps(before, s.tree) => k,
                    _ => return link::place_auto(&t.root, &s.name, before, entry, s.tree),
                }
            }
        };
        link::place_over(&t.root, &s.name, before, entry, s.tree, prefer)
    };
    // A symlink is one directory entry: threads creating them in the same
    // folder only queue on that folder's lock (the kernel spins on it), so
    // symlinks are made in one pass on one thread; copies and hard links
    // create many inodes each and gain from both cores.
    let results: Vec<_> = if mode == LinkMode::Symlink {
        todo.iter().map(place_one).collect()
    } else {
        super::parallel::map(&todo, place_one)
    };
    for (i, result) in todo.into_iter().zip(results) {
        kinds[i] = Some(result?);
    }
    Ok(kinds)
}

/// Removes the links an earlier run placed that this one did not (a skill
/// removed, disabled, or an agent dropped); one that cannot be removed is
/// left in place with a warning.
fn unlink_unwanted(sess: &Session<'_>, placed: &[PlacedLink], changes: &mut LinkChanges) {
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
}

fn matches_kind(state: &LinkState, kind: LinkKind) -> bool {
    match state {
        LinkState::Symlink { .. } => kind == LinkKind::Symlink,
        LinkState::Copy { kind: k, .. } => *k == kind,
        _ => false,
    }
}

/// Under `auto`, a folder skillpm already placed for this tree is kept
/// whatever kind it is (`place_auto` checks it is still current).
fn auto_keeps(state: &LinkState, tree: crate::digest::Digest) -> bool {
    matches!(state, LinkState::Copy { tree: Some(t), .. } if *t == tree)
}
