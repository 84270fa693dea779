//! What `list` and `verify` see of the placements: each locked skill's
//! state, and every way a placement differs from its lock entry (missing,
//! edited, another tool's folder, shadowed by an unmanaged skill).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::link::{self, LinkKind, LinkState};
use super::{PlacementSite, Target, record_at};
use crate::agents::roots;
use crate::project::lock::LockedSkill;
use crate::project::state::Placements;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillState {
    /// Approved, linked, content as locked.
    Approved,
    /// Locked but its tree is not approved: linked nowhere.
    Pending,
    /// Turned off with `skillpm disable`.
    Disabled,
    /// A link or the store entry is missing: `skillpm install` restores it.
    Missing,
    /// The linked content no longer hashes to the lock's tree.
    Modified,
    /// Approved and linked, but the audit gate refuses the tree under this
    /// lock (an acceptance dropped since it was linked, a rule set that
    /// finds more, a stricter `fail-on`): `install` refuses it, `mcp` and
    /// `show` withhold it, and `skillpm disable` unlinks it
    /// (docs/audit.md#the-gate).
    Refused,
    /// Declared in skills.toml but not in skills.lock yet.
    NotLocked,
}

/// What is wrong with one placed skill.
#[derive(Debug, Clone, Serialize)]
pub struct Drift {
    pub skill: String,
    pub path: PathBuf,
    /// `missing-link`, `missing-entry`, `wrong-target`, `modified`,
    /// `foreign`, `shadowed`, `provenance` (the lock entry's chain to its
    /// source is broken; `path` is skills.lock).
    pub kind: &'static str,
    pub detail: String,
    /// For `modified`: the files that differ from the locked tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

/// Checks one locked skill in one root.
pub fn check_placed(
    site: &PlacementSite<'_>,
    placements: &Placements,
    t: &Target,
    s: &LockedSkill,
) -> Option<Drift> {
    let path = t.root.join(&s.name);
    let drift = |kind, detail: String| Drift {
        skill: s.name.clone(),
        path: path.clone(),
        kind,
        detail,
        files: Vec::new(),
    };
    let state = match link::inspect(&path, record_at(placements, &path)) {
        Ok(state) => state,
        Err(e) => return Some(drift("missing-link", e.to_string())),
    };
    match &state {
        LinkState::Missing => {
            return Some(drift(
                "missing-link",
                "no link; `skillpm install` restores it".into(),
            ));
        }
        // A folder skillpm did not place but holding exactly the locked
        // tree (a project copied without its cache): agents read the
        // right files; the next `install` adopts it.
        LinkState::Foreign { .. }
            if link::hash_placed(&path).is_ok_and(|h| {
                h.digest == s.tree || super::gh_installed_copy(site, s, &path, &h)
            }) =>
        {
            return None;
        }
        LinkState::Foreign { what } => {
            return Some(drift(
                "foreign",
                format!("{what} not made by skillpm sits where the skill should be linked"),
            ));
        }
        LinkState::Symlink { target } if *target != site.store.entry_path(&s.tree) => {
            return Some(drift(
                "wrong-target",
                format!(
                    "points at {} instead of the locked tree {}",
                    target.display(),
                    s.tree
                ),
            ));
        }
        _ => {}
    }
    if let LinkState::Symlink { target } = &state
        && !target.is_dir()
    {
        return Some(drift(
            "missing-entry",
            format!(
                "a dangling link: {} is gone from the store (or this project was copied or mounted without the cache it links into); run `skillpm install` to restore it, and set `link-mode = \"auto\"` under [install] in skills.toml so the project holds real folders that travel with it",
                target.display()
            ),
        ));
    }
    edited(site, s, &state, &path)
}

/// Whether the files at `path` (placed as `state`) still hash to the
/// locked tree; if not, the drift with the files that differ.
fn edited(
    site: &PlacementSite<'_>,
    s: &LockedSkill,
    state: &LinkState,
    path: &Path,
) -> Option<Drift> {
    let drift = |detail: String, files: Vec<String>| Drift {
        skill: s.name.clone(),
        path: path.to_owned(),
        kind: "modified",
        detail,
        files,
    };
    match link::hash_placed(path) {
        Ok(tree) if tree.digest == s.tree || super::gh_installed_copy(site, s, path, &tree) => None,
        Ok(tree) => {
            let fix = fix_for_edited(state);
            let files = super::restored_files(site, s, &tree);
            Some(drift(
                format!(
                    "content hashes to {} but skills.lock pins {}; {fix}",
                    tree.digest, s.tree
                ),
                files,
            ))
        }
        Err(e) => Some(drift(e.to_string(), Vec::new())),
    }
}

/// What repairs an edited placement: a copy holds its own files; through a
/// symlink or a hard link the edit changed the store entry, which must be
/// set aside first.
fn fix_for_edited(state: &LinkState) -> &'static str {
    match state {
        LinkState::Copy {
            kind: LinkKind::Copy | LinkKind::Clone,
            ..
        } => "`skillpm install` places it again",
        _ => {
            "the edit reached the store through the link: `skillpm cache verify` sets the entry aside, then `skillpm install` restores it"
        }
    }
}

/// The state `list` shows for a locked skill.
pub fn state_of(
    site: &PlacementSite<'_>,
    placements: &Placements,
    targets: &[Target],
    s: &LockedSkill,
    enabled: bool,
) -> SkillState {
    if !enabled {
        return SkillState::Disabled;
    }
    if !s.is_approved() {
        return SkillState::Pending;
    }
    let drifts: Vec<Drift> = targets
        .iter()
        .filter_map(|t| check_placed(site, placements, t, s))
        .collect();
    if drifts.iter().any(|d| d.kind == "modified") {
        SkillState::Modified
    } else if drifts.is_empty() {
        SkillState::Approved
    } else {
        SkillState::Missing
    }
}

/// Unmanaged skills of the same name as one of `active` that agents would
/// load instead (a winner in a shared folder may be another project's
/// placement); `cwd` is where the command runs.
pub fn shadowed(
    site: &PlacementSite<'_>,
    targets: &[Target],
    active: &[&LockedSkill],
    cwd: &Path,
) -> Vec<Drift> {
    let placements = site.state.placements();
    let discovery = roots::discover(site.root, cwd, site.env, Default::default());
    let mut out = Vec::new();
    for s in active {
        let ours: Vec<PathBuf> = targets.iter().map(|t| t.root.join(&s.name)).collect();
        if let Some(winner) = discovery.winner(&s.name)
            && !ours.contains(&winner.path)
            && !matches!(link::inspect(&winner.path, record_at(&placements, &winner.path)), Ok(st) if st.is_managed())
        {
            out.push(Drift {
                skill: s.name.clone(),
                path: winner.path.clone(),
                kind: "shadowed",
                detail: format!(
                    "an unmanaged skill of the same name in the {} scope ({}) wins over the managed one",
                    winner.scope, winner.agent
                ),
                files: Vec::new(),
            });
        }
    }
    out
}
