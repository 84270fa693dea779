//! Where links go (the manifest's `[install] scope` and `agents`), and making
//! the roots match the set of skills that should be enabled: place or swap
//! links, remove the ones skillpm placed earlier and no longer wants, never
//! touch anything it did not make.
//!
//! The engine below `ops`: a command passes the open project in as a
//! [`PlacementSite`] of plain values and gets its notes back through `PlacementSite::notes`
//! (docs/architecture.md).

pub mod agents;
pub mod drift;
pub mod gate;
pub mod link;
mod sealed;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::roots::{self, Agent, Env, Scope};
use crate::digest::HashedTree;
use crate::error::{Exit, OpError};
use crate::fs::parallel;
use crate::project::Manifest;
use crate::project::lock::LockedSkill;
use crate::project::state::{PlacedLink, Placements, ProjectState};
use crate::store::Store;
use link::{LinkKind, LinkMode, LinkState};

/// What the engine reads of an open project, and where its notes go.
pub struct PlacementSite<'a> {
    /// The project's root folder.
    pub root: &'a Path,
    pub manifest: &'a Manifest,
    pub state: &'a ProjectState,
    pub store: &'a Store,
    pub env: &'a Env,
    /// The install policy of every level (docs/policy.md).
    pub policy: &'a crate::policy::Effective,
    /// `import`: a folder another tool installed under a skill's name is
    /// left in place and reported, instead of failing the sync.
    pub keep_foreign: bool,
    /// `import --replace`: such a folder is backed up and replaced.
    pub replace_foreign: bool,
    /// `--agent` or `--link-mode` was given: the manifest that records them
    /// is saved once the links are placed.
    pub save_choices: bool,
    /// The command's printer: warnings and notes, in the order they happen.
    pub notes: &'a (dyn Fn(Note) + Sync),
}

/// A line for the person running the command.
pub enum Note {
    Warn(String),
    Info(String),
}

impl PlacementSite<'_> {
    fn warn(&self, message: String) {
        (self.notes)(Note::Warn(message));
    }

    fn info(&self, message: String) {
        (self.notes)(Note::Info(message));
    }
}

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
pub fn chosen_agents(site: &PlacementSite<'_>) -> anyhow::Result<Vec<Agent>> {
    let origin = format!("[install] agents in {}", site.manifest.path().display());
    let Some(names) = site.manifest.install().agents.as_deref() else {
        return Ok(default_agents(site.root, site.env));
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
pub fn apply_choices(
    agents: &[String],
    link_mode: Option<LinkMode>,
    manifest: &mut Manifest,
) -> anyhow::Result<()> {
    if !agents.is_empty() {
        let mut ids: Vec<String> = Vec::new();
        for name in agents {
            let agent = parse_agent("--agent", name)?;
            if !ids.iter().any(|i| i == agent.as_str()) {
                ids.push(agent.as_str().to_owned());
            }
        }
        if manifest.install().agents.as_deref() != Some(&ids[..]) {
            manifest.set_install_agents(&ids)?;
        }
    }
    if let Some(mode) = link_mode
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

/// The agents a new skills.toml names (`init`, the first `-g` or
/// `--scope admin` run): [`default_agents`], plus Claude Code where no
/// agent is detected (Claude Code does not read `.agents/skills`).
pub fn initial_agents(project: &Path, env: &roots::Env) -> Vec<Agent> {
    let mut agents = default_agents(project, env);
    if agents.len() < 2 {
        agents.push(Agent::Claude);
    }
    agents
}

/// What sits at `name` in the agent folders a new project's skills go to
/// ([`initial_agents`]).
pub fn existing_places(project: &Path, env: &roots::Env, name: &str) -> Vec<PathBuf> {
    if name == "*" {
        return Vec::new();
    }
    let agents = initial_agents(project, env);
    let mut out: Vec<PathBuf> = Vec::new();
    for agent in agents {
        let Some(root) = roots::root_dir(Scope::Repo, agent, project, env) else {
            continue;
        };
        let path = root.join(name);
        if std::fs::symlink_metadata(&path).is_ok() && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// The roots the chosen agents read, one per distinct folder: agents that
/// share a folder (Codex, Cursor, Gemini CLI… all read `.agents/skills`)
/// share one placement.
pub fn targets(site: &PlacementSite<'_>) -> anyhow::Result<Vec<Target>> {
    let scope = site.manifest.install().scope.root_scope();
    let mut out: Vec<Target> = Vec::new();
    for agent in chosen_agents(site)? {
        let Some(root) = roots::root_dir(scope, agent, site.root, site.env) else {
            site.warn(format!(
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
pub fn link_mode(site: &PlacementSite<'_>) -> LinkMode {
    if let Some(mode) = site.manifest.install().link_mode {
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
    /// Places another tool's folder holds, left alone (`import` only),
    /// with how each differs from the locked tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<FileChanges>,
    /// Folders skillpm did not place that held exactly the locked tree:
    /// taken over (replaced by skillpm's placement, nothing lost).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adopted: Vec<PathBuf>,
    /// Folders that differed, moved to a backup (`import --replace`) and
    /// replaced: `path` is where the old folder now is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<Replaced>,
    /// Copies that no longer held their tree, placed again, with the files
    /// put back (`changed`/`added`/`removed` + path, as `verify` names them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restored: Vec<FileChanges>,
    /// Each placement added, removed or changed, with the tree it showed
    /// before and shows now (docs/output.md: say what changes).
    pub changes: Vec<PlacementChange>,
}

/// One placement this run added, removed or changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlacementChange {
    pub name: String,
    pub path: PathBuf,
    /// `added`, `removed` or `changed`.
    pub action: &'static str,
    /// The tree the placement showed before (`None`: nothing, or not skillpm's).
    pub old: Option<crate::digest::Digest>,
    /// The tree it shows now (`None` when removed).
    pub new: Option<crate::digest::Digest>,
}

/// A folder and how its files differ from the locked tree (`changed`,
/// `added` or `removed` + path).
#[derive(Debug, Clone, Serialize)]
pub struct FileChanges {
    pub path: PathBuf,
    pub files: Vec<String>,
}

/// A folder `import --replace` took over, and where its backup is.
#[derive(Debug, Clone, Serialize)]
pub struct Replaced {
    pub path: PathBuf,
    pub backup: PathBuf,
}

pub use link::record_at;

/// The folder a scope's agent folders must stay inside: the project root,
/// or the home folder for the user scope.
pub fn scope_root(site: &PlacementSite<'_>, scope: Scope) -> Option<PathBuf> {
    match scope {
        Scope::Repo => Some(site.root.to_path_buf()),
        Scope::User => site.env.home.clone(),
        Scope::System | Scope::Admin => None,
    }
}

/// What the state records for the places a run touches: the project's own
/// record when every target is inside the project, else every project's
/// (a user-scope folder is shared).
pub fn placements_for(site: &PlacementSite<'_>, targets: &[Target]) -> Placements {
    placements_over(site, targets, None)
}

/// [`placements_for`] with the project's own record already read (`own`).
fn placements_over(
    site: &PlacementSite<'_>,
    targets: &[Target],
    own: Option<&[PlacedLink]>,
) -> Placements {
    if (targets.iter()).all(|t| t.root.starts_with(site.root)) {
        match own {
            Some(own) => Placements::of(own),
            None => site.state.project_placements(site.root),
        }
    } else {
        site.state.placements()
    }
}

/// Refuses (naming the folder) an agent folder that a symlink leads out
/// of its scope root, before anything is placed or removed there.
fn ensure_targets_inside(site: &PlacementSite<'_>, targets: &[Target]) -> anyhow::Result<()> {
    for t in targets {
        if let Some(base) = scope_root(site, t.scope) {
            link::ensure_inside(&t.root, &base)?;
        }
    }
    Ok(())
}

impl LinkChanges {
    /// Nothing placed, removed, adopted, replaced, restored or left in conflict.
    pub fn is_empty(&self) -> bool {
        self.linked.is_empty()
            && self.copied.is_empty()
            && self.unlinked.is_empty()
            && self.conflicts.is_empty()
            && self.adopted.is_empty()
            && self.replaced.is_empty()
            && self.restored.is_empty()
            && self.changes.is_empty()
    }

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

/// The install policy (docs/policy.md) for placing `entries` here: their
/// sources and lock entries, the link mode and agents this site uses, and
/// `[audit] fail-on`. Exit 3 naming each violation, its rule, file and
/// line. Nothing to do (no stat beyond loading) without a policy file.
pub fn check_policy(site: &PlacementSite<'_>, entries: &[&LockedSkill]) -> anyhow::Result<()> {
    if site.policy.is_empty() {
        return Ok(());
    }
    let violations = policy_violations(site, entries)?;
    if violations.is_empty() {
        return Ok(());
    }
    Err(crate::policy::PolicyError::Violated { violations }.into())
}

/// What [`check_policy`] finds, each with its line of skills.toml or
/// skills.lock (`policy check` lists them).
pub fn policy_violations(
    site: &PlacementSite<'_>,
    entries: &[&LockedSkill],
) -> anyhow::Result<Vec<crate::policy::Violation>> {
    if site.policy.is_empty() {
        return Ok(Vec::new());
    }
    let agents = chosen_agents(site)?;
    let lock_path = site.root.join(crate::project::LOCK_FILE);
    let scene = crate::policy::Scene {
        root: site.root,
        manifest: site.manifest,
        lock_path: &lock_path,
        entries,
        placing: Some((link_mode(site), &agents)),
    };
    let found = site.policy.check(&scene);
    Ok(crate::policy::check::with_lines(
        found,
        site.manifest.path(),
        &lock_path,
    ))
}

/// Makes the roots hold exactly the links of `enabled` (approved skills),
/// after the audit gate ([`gate::check`]) let every one of them through.
/// Every place is inspected once, and anything there that skillpm did not
/// make fails the sync (exit 1, both paths named) before a link changes;
/// a folder that holds exactly the locked tree is taken over instead (it
/// is what skillpm would place, so nothing is lost). When every folder's
/// stamp vouches for its links and the project's record names exactly
/// them, nothing is read link by link ([`sealed::all_held`]).
pub fn sync_links(
    site: &PlacementSite<'_>,
    enabled: &[&LockedSkill],
) -> anyhow::Result<LinkChanges> {
    // Nothing this lock has not accepted is linked (docs/audit.md#the-gate).
    gate::check(site, enabled)?;
    let targets = targets(site)?;
    ensure_targets_inside(site, &targets)?;
    let mode = link_mode(site);
    // Folders whose stamps vouch for their links are not read link by link.
    let sealing = sealed::check(site, &targets, enabled, mode);
    if sealed::all_held(site, &sealing, &targets, enabled) {
        if site.save_choices {
            site.manifest.save()?;
        }
        report_rejected(site);
        return Ok(LinkChanges::default());
    }
    // The project's own record, read once for the whole sync.
    let own = site.state.placed_links(site.root);
    let placements = placements_over(site, &targets, Some(&own));
    let mut changes = LinkChanges::default();
    let plan = plan_links(site, &placements, &targets, &sealing, enabled, &mut changes)?;
    let in_place: Vec<bool> = (targets.iter())
        .map(|t| {
            let mine = plan.iter().filter(|(pt, ..)| std::ptr::eq(*pt, t));
            mine.clone().count() == enabled.len()
                && mine
                    .into_iter()
                    .all(|(.., entry, before)| sealed::in_place(before, entry))
        })
        .collect();
    // Each agent folder is created once here, not once per link (the plan
    // holds each target's places together).
    let mut roots: Vec<&PathBuf> = plan.iter().map(|(t, ..)| &t.root).collect();
    roots.dedup();
    for root in roots {
        link::ensure_root(root)?;
    }
    hash_before_placing(site, &plan, mode)?;
    let kinds = place_all(&plan, mode)?;
    let placed = record_placed(plan, kinds, mode, &mut changes);
    unlink_unwanted(site, &placements, &own, &placed, &mut changes);
    if site.save_choices {
        site.manifest.save()?;
    }
    site.state
        .record_links_over(site.root, placed, &own)
        .map_err(|e| anyhow::anyhow!("cannot record the links placed: {e}"))?;
    report_rejected(site);
    announce(site, &changes);
    if changes.is_empty() {
        sealed::record(site, &sealing, &in_place);
    }
    Ok(changes)
}

/// The placements the state records for `plan` as placed (`kinds`), with
/// each one that changed noted in `changes`.
fn record_placed(
    plan: Vec<Planned<'_, '_>>,
    kinds: Vec<Option<LinkKind>>,
    mode: LinkMode,
    changes: &mut LinkChanges,
) -> Vec<PlacedLink> {
    let mut placed = Vec::with_capacity(plan.len());
    for ((t, s, dest, entry, before), kind) in plan.into_iter().zip(kinds) {
        let Some(kind) = kind else { continue };
        // A symlink to the entry stands for its tree without reading the
        // digest back out of the target's name.
        let same_tree = sealed::in_place(&before, &entry) || before.digest() == Some(s.tree);
        if !same_tree || !matches_kind(&before, kind) {
            changes.linked.push(dest.clone());
            let old = before.digest();
            if old != Some(s.tree) {
                changes.changes.push(PlacementChange {
                    name: s.name.clone(),
                    path: dest.clone(),
                    action: if old.is_some() { "changed" } else { "added" },
                    old,
                    new: Some(s.tree),
                });
            }
        }
        if kind == LinkKind::Copy && mode == LinkMode::Symlink {
            changes.copied.push(dest);
        }
        placed.push(PlacedLink {
            root: t.root.clone(),
            name: s.name.clone(),
            tree: Some(s.tree),
            kind: Some(kind.as_str().to_owned()),
        });
    }
    placed
}

/// The notes of a finished sync: copies standing in for symlinks, copies
/// restored, folders adopted or replaced.
fn announce(site: &PlacementSite<'_>, changes: &LinkChanges) {
    if !changes.copied.is_empty() {
        site.warn(format!(
            "symlinks are not possible here; {} skill folder(s) were copied instead (kept in sync by `skillpm install`)",
            changes.copied.len()
        ));
    }
    for r in changes.restored.iter() {
        site.info(format!(
            "restored {} to its locked tree ({})",
            r.path.display(),
            if r.files.is_empty() {
                "its files were changed".to_owned()
            } else {
                r.files.join(", ")
            }
        ));
    }
    // `import` reports these itself, once per folder.
    for p in changes.adopted.iter().filter(|_| !site.keep_foreign) {
        site.info(format!(
            "adopted {}: it held exactly the locked tree, and skillpm now manages it",
            p.display()
        ));
    }
    for r in changes.replaced.iter().filter(|_| !site.keep_foreign) {
        site.info(format!(
            "replaced {} (the old folder is backed up at {})",
            r.path.display(),
            r.backup.display()
        ));
    }
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

crate::classified!(Tampered => Integrity);

/// The cache is content, not authority (docs/threat-model.md): every tree
/// this run places is checked by this run first, hashed or its marker found
/// to hold ([`crate::store::Store::verify_placeable`]; the store skips what
/// this run imported, hashed or checked already). A place that already
/// holds the tree and is left as it is needs no check. Nothing is placed
/// when one entry fails.
fn hash_before_placing(
    site: &PlacementSite<'_>,
    plan: &[Planned<'_, '_>],
    mode: LinkMode,
) -> anyhow::Result<()> {
    let mut todo: Vec<&LockedSkill> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, s, dest, entry, before) in plan {
        if !already_placed(before, s.tree, dest, entry, mode) && seen.insert(s.tree) {
            todo.push(s);
        }
    }
    let store = site.store;
    let checked = parallel::map(&todo, |s| store.verify_placeable(&s.tree));
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
/// folder skillpm did not make is an error (exit 1), unless it holds
/// exactly the locked tree (adopted), or, with `keep_foreign`, left alone
/// and returned as a conflict. A copy whose files were edited is placed
/// again, and the files it gets back are named in `changes.restored`.
fn plan_links<'t, 's>(
    site: &PlacementSite<'_>,
    placements: &Placements,
    targets: &'t [Target],
    sealing: &sealed::Sealing,
    enabled: &[&'s LockedSkill],
    changes: &mut LinkChanges,
) -> anyhow::Result<Vec<Planned<'t, 's>>> {
    let places: Vec<(usize, &Target, &LockedSkill)> = (targets.iter().enumerate())
        .flat_map(|(i, t)| enabled.iter().map(move |s| (i, t, *s)))
        .collect();
    // Each place is inspected on its own (a copy is hashed again), in parallel.
    let states = parallel::map(&places, |(i, t, s)| {
        if sealing.vouched(*i) {
            let target = site.store.entry_path(&s.tree);
            return Ok(((LinkState::Symlink { target }, None), None));
        }
        let path = t.root.join(&s.name);
        let (mut state, mut drifted) =
            link::inspect_placed(&path, s.tree, record_at(placements, &path))?;
        // A copy `gh skill` rewrote holds the tree but for its own keys.
        if let (Some(placed), LinkState::Copy { tree: claimed, .. }) = (&drifted, &mut state)
            && gh_installed_copy(site, s, &path, placed)
        {
            *claimed = Some(s.tree);
            drifted = None;
        }
        let state = (state, drifted);
        // A folder skillpm did not place is hashed only when it would
        // otherwise stop the run: one holding exactly the tree is adopted.
        // `Some(true)`: exactly the tree; `Some(false)`: the tree plus
        // another tool's record of it (placed again, without it).
        let adoptable = match &state.0 {
            LinkState::Foreign { .. } => match link::hash_placed(&path) {
                Ok(h) if h.digest == s.tree => Some(true),
                Ok(h) if site.keep_foreign && without_records(h.clone()) == s.tree => Some(false),
                Ok(h) if gh_installed_copy(site, s, &path, &h) => Some(false),
                _ => None,
            },
            _ => None,
        };
        Ok::<_, link::LinkError>((state, adoptable))
    });
    let mut plan = Vec::with_capacity(places.len());
    for ((_, t, s), found) in places.into_iter().zip(states) {
        let dest = t.root.join(&s.name);
        let entry = site.store.entry_path(&s.tree);
        let ((before, drifted), adoptable) = found?;
        let before = match before {
            LinkState::Foreign { what } if adoptable.is_some() => {
                changes.adopted.push(dest.clone());
                LinkState::Copy {
                    // A folder holding exactly the tree may stay as it is;
                    // a symlink of another tool's is placed again.
                    tree: (what == "a folder" && adoptable == Some(true)).then_some(s.tree),
                    kind: LinkKind::Copy,
                }
            }
            LinkState::Foreign { what } => match foreign(site, s, &dest, what, &entry, changes)? {
                Some(state) => state,
                None => continue,
            },
            other => other,
        };
        if let Some(placed) = drifted {
            changes.restored.push(FileChanges {
                path: dest.clone(),
                files: restored_files(site, s, &placed),
            });
        }
        plan.push((t, s, dest, entry, before));
    }
    Ok(plan)
}

/// Another tool's folder (or link) at `dest`, where `s` should go (`what`
/// says which): backed up and replaced (`import --replace`; the place is
/// then empty), kept and reported as a conflict (`import`; `None`: nothing
/// is placed there), else an error naming both paths (exit 1).
fn foreign(
    site: &PlacementSite<'_>,
    s: &LockedSkill,
    dest: &Path,
    what: &'static str,
    entry: &Path,
    changes: &mut LinkChanges,
) -> anyhow::Result<Option<LinkState>> {
    if site.replace_foreign {
        let backup = back_up(site, dest)?;
        changes.replaced.push(Replaced {
            path: dest.to_owned(),
            backup,
        });
        Ok(Some(LinkState::Missing))
    } else if site.keep_foreign {
        // A link of the other tool's to a folder already kept
        // is the same folder: reported once.
        let real = std::fs::canonicalize(dest).ok();
        let seen = changes.conflicts.iter().any(|c| {
            c.path == dest || (real.is_some() && std::fs::canonicalize(&c.path).ok() == real)
        });
        if !seen {
            let files = match link::hash_placed(dest) {
                Ok(placed) => restored_files(site, s, &placed),
                Err(_) => Vec::new(),
            };
            changes.conflicts.push(FileChanges {
                path: dest.to_owned(),
                files,
            });
        }
        Ok(None)
    } else {
        Err(link::LinkError::Conflict {
            path: dest.to_owned(),
            what,
            wanted: entry.to_owned(),
        }
        .into())
    }
}

/// Moves another tool's folder (or link) at `dest` into
/// `<cache>/state/backups/<project key>/<time>/<path in the project>`,
/// so `import --replace` loses nothing; returns where it went.
fn back_up(site: &PlacementSite<'_>, dest: &Path) -> anyhow::Result<PathBuf> {
    let rel = dest.strip_prefix(site.root).unwrap_or(dest);
    let rel: PathBuf = rel
        .components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .collect();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    let backup = site
        .state
        .backup_dir(site.root)
        .join(format!("{stamp}-{}", crate::fs::unique_suffix()))
        .join(rel);
    let parent = crate::fs::parent_dir(&backup);
    std::fs::create_dir_all(&parent)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    std::fs::rename(dest, &backup).map_err(|e| {
        anyhow::anyhow!(
            "cannot move {} to its backup {}: {e}; nothing was replaced: move it away yourself and run the command again",
            dest.display(),
            backup.display()
        )
    })?;
    Ok(backup)
}

/// Files other tools keep inside a skill folder they installed, about it
/// (openskills' `.openskills.json`): `import` has read them, so a folder
/// that differs from the resolved tree only by them is adopted.
const OTHER_TOOLS_RECORDS: &[&str] = &[".openskills.json"];

fn without_records(tree: HashedTree) -> crate::digest::Digest {
    let files = (tree.files.into_iter())
        .filter(|f| !OTHER_TOOLS_RECORDS.contains(&f.path.as_str()))
        .collect();
    HashedTree::from_files(files).digest
}

/// Whether `placed`, hashed from the folder at `path`, is `s`'s locked tree
/// as `gh skill install` writes it: every file the same but SKILL.md, which
/// differs only by gh's own `metadata` keys (`skill::gh`,
/// docs/sources.md#skills-other-tools-installed).
pub(crate) fn gh_installed_copy(
    site: &PlacementSite<'_>,
    s: &LockedSkill,
    path: &Path,
    placed: &HashedTree,
) -> bool {
    use crate::skill::{MAX_SKILL_MD_BYTES, SKILL_MD};
    let entry = site.store.entry_path(&s.tree);
    let locked = match site.store.remembered_tree(&s.tree) {
        Some(tree) => tree,
        None => match crate::digest::hash_tree(&entry) {
            Ok(tree) => tree,
            Err(_) => return false,
        },
    };
    let others = |t: &HashedTree| -> Vec<(String, crate::digest::Digest)> {
        (t.files.iter())
            .filter(|f| f.path != SKILL_MD)
            .map(|f| (f.path.clone(), f.digest))
            .collect()
    };
    if others(placed) != others(&locked) {
        return false;
    }
    let read = |dir: &Path| {
        crate::fs::read_bounded_bytes(&dir.join(SKILL_MD), MAX_SKILL_MD_BYTES)
            .ok()
            .flatten()
    };
    match (read(path), read(&entry)) {
        (Some(mine), Some(theirs)) => crate::skill::gh::same_but_gh_keys(&mine, &theirs),
        _ => false,
    }
}

/// How the files of `placed` differ from `s`'s locked tree (`changed`,
/// `added` or `removed` + path): the files a drifted copy gets back, and
/// what `verify` names.
fn restored_files(site: &PlacementSite<'_>, s: &LockedSkill, placed: &HashedTree) -> Vec<String> {
    let Some(locked) = site.store.remembered_tree(&s.tree) else {
        return Vec::new();
    };
    let diff = crate::digest::diff_trees(&locked, placed);
    let mut files = Vec::new();
    for (how, list) in [
        ("changed", &diff.changed),
        ("added", &diff.added),
        ("removed", &diff.removed),
    ] {
        files.extend(list.iter().map(|f| format!("{how} {f}")));
    }
    files
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
        parallel::map(&todo, place_one)
    };
    for (i, result) in todo.into_iter().zip(results) {
        kinds[i] = Some(result?);
    }
    Ok(kinds)
}

/// Removes the links an earlier run placed that this one did not (a skill
/// removed, disabled, or an agent dropped); one that cannot be removed is
/// left in place with a warning, and one whose agent folder now leads out
/// of its scope root is not touched. The record is authenticated
/// (`project::state`), and still nothing is removed that is not a skill
/// folder in an agent folder skillpm manages ([`managed_roots`]), nor a
/// placed folder that no longer holds the tree skillpm placed there (its
/// files were edited or replaced): those are reported and left alone
/// (docs/threat-model.md, cache writer).
fn unlink_unwanted(
    site: &PlacementSite<'_>,
    placements: &Placements,
    own: &[PlacedLink],
    placed: &[PlacedLink],
    changes: &mut LinkChanges,
) {
    let keep: std::collections::HashSet<(&Path, &str)> = (placed.iter())
        .map(|p| (p.root.as_path(), p.name.as_str()))
        .collect();
    let home = site.env.home.as_deref();
    let managed = managed_roots(site);
    for old in own {
        if keep.contains(&(old.root.as_path(), old.name.as_str())) {
            continue;
        }
        let path = old.path();
        if !managed.contains(&old.root) || !crate::names::is_valid_skill_name(&old.name) {
            site.warn(format!(
                "left in place: {} is not a skill folder in an agent folder skillpm manages, although skillpm's record names it",
                path.display()
            ));
            continue;
        }
        let base = if old.root.starts_with(site.root) {
            Some(site.root)
        } else {
            home.filter(|h| old.root.starts_with(h))
        };
        if let Some(base) = base
            && let Err(e) = link::ensure_inside(&old.root, base)
        {
            site.warn(format!("left in place: {e}"));
            continue;
        }
        let record = record_at(placements, &path);
        let state = link::inspect(&path, record).ok();
        if let Some(LinkState::Copy { tree: Some(t), .. }) = &state
            && !link::hash_placed(&path).is_ok_and(|h| h.digest == *t)
        {
            site.warn(format!(
                "left in place: {} no longer holds the skill skillpm placed there (its files changed); remove it yourself if it is not needed",
                path.display()
            ));
            continue;
        }
        let was = state.and_then(|s| s.digest());
        match link::unlink(&old.root, &old.name, record) {
            Ok(true) => {
                changes.changes.push(PlacementChange {
                    name: old.name.clone(),
                    path: path.clone(),
                    action: "removed",
                    old: was,
                    new: None,
                });
                changes.unlinked.push(path);
            }
            Ok(false) => {}
            Err(e) => site.warn(format!("left in place: {e}")),
        }
    }
}

/// Every agent folder skillpm may place skills in for this project: each
/// known agent's folder in the project, the user's and the admin scope.
/// Only a place directly inside one of them can be a placement to remove.
fn managed_roots(site: &PlacementSite<'_>) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for agent in Agent::ALL {
        for scope in [Scope::Repo, Scope::User, Scope::Admin] {
            out.extend(roots::root_dir(scope, agent, site.root, site.env));
        }
    }
    out
}

/// Reports, once each, the placement records this run ignored because
/// their MAC did not verify (`project::state`).
fn report_rejected(site: &PlacementSite<'_>) {
    for path in site.state.take_rejected() {
        site.warn(format!(
            "ignored {}: it is not a placement record your skillpm wrote (no valid MAC: written by an older skillpm, changed by someone without your record key, or made under another key); no folder it names is treated as skillpm's. {}",
            path.display(),
            crate::trust::record_key::CI_HINT
        ));
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
