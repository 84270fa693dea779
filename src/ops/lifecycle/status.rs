//! `skillpm list` (the project's skills and their state) and `skillpm verify`
//! (re-hash what agents would load; exit 3 on any drift).

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Session;
use super::placement::{Target, scope_of, targets};
use crate::approve::diff_trees;
use crate::digest::Digest;
use crate::link::{self, LinkState};
use crate::ops::{Context, Report};
use crate::project::lock::LockedSkill;
use crate::roots::{self, Agent, Scope};

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
    /// Declared in skills.toml but not in skills.lock yet.
    NotLocked,
}

#[derive(Debug, Serialize)]
pub struct ListRow {
    pub name: String,
    pub version: Option<String>,
    /// Git skills: the commit the lock pins.
    pub commit: Option<String>,
    pub source: String,
    pub tree: Option<Digest>,
    pub signer: Option<String>,
    pub scope: Scope,
    pub agents: Vec<Agent>,
    pub state: SkillState,
    /// The Agent Skills rules the locked content breaks (from the lock).
    pub warnings: Vec<String>,
}

/// `--json`: `{"project", "skills": [{"name", "version", "commit", "source", "tree",
/// "signer", "scope", "agents", "state": "approved"|"pending"|"disabled"|
/// "missing"|"modified"|"not-locked", "warnings": ["SKILL.md: …"]}]}`.
#[derive(Debug, Serialize)]
pub struct ListReport {
    pub project: PathBuf,
    pub skills: Vec<ListRow>,
}

impl Report for ListReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.skills.is_empty() {
            return writeln!(
                out,
                "No skills in {} yet (`skillpm add <name>`).",
                self.project.display()
            );
        }
        let w = self
            .skills
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        writeln!(
            out,
            "{:w$}  {:10}  {:12}  {:14}  {:10}  STATE",
            "NAME", "VERSION", "SOURCE", "TREE", "SIGNER"
        )?;
        for s in &self.skills {
            let state = serde_json::to_value(s.state)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            writeln!(
                out,
                "{:w$}  {:10}  {:12}  {:14}  {:10}  {state} ({} {})",
                s.name,
                // Unversioned git skills show their commit: `@80e0b5ee4`.
                s.version.clone().unwrap_or_else(|| s
                    .commit
                    .as_deref()
                    .map(|c| format!("@{}", &c[..c.len().min(9)]))
                    .unwrap_or_else(|| "-".into())),
                s.source,
                s.tree
                    .map(|t| t.hex()[..12].to_owned())
                    .unwrap_or_else(|| "-".into()),
                s.signer
                    .as_deref()
                    .map(|k| &k[..k.len().min(10)])
                    .unwrap_or("-"),
                s.scope,
                s.agents
                    .iter()
                    .map(|a| a.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            )?;
            for w in &s.warnings {
                writeln!(out, "  warning: {w}")?;
            }
        }
        Ok(())
    }
}

/// What is wrong with one placed skill.
#[derive(Debug, Clone, Serialize)]
pub struct Drift {
    pub skill: String,
    pub path: PathBuf,
    /// `missing-link`, `missing-entry`, `wrong-target`, `modified`,
    /// `foreign`, `shadowed`.
    pub kind: &'static str,
    pub detail: String,
    /// For `modified`: the files that differ from the locked tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

/// Checks one locked skill in one root.
fn check_placed(sess: &Session<'_>, t: &Target, s: &LockedSkill) -> Option<Drift> {
    let path = t.root.join(&s.name);
    let drift = |kind, detail: String| Drift {
        skill: s.name.clone(),
        path: path.clone(),
        kind,
        detail,
        files: Vec::new(),
    };
    let state = match link::inspect(&path) {
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
        LinkState::Foreign { what } => {
            return Some(drift(
                "foreign",
                format!("{what} not made by skillpm sits where the skill should be linked"),
            ));
        }
        LinkState::Symlink { target } if *target != sess.store.entry_path(&s.tree) => {
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
            format!("{} is gone from the store", target.display()),
        ));
    }
    match link::hash_placed(&path) {
        Ok(tree) if tree.digest == s.tree => None,
        Ok(tree) => {
            let files = match sess.state.load_tree(&s.tree) {
                Some(locked) => {
                    let d = diff_trees(&locked, &tree);
                    let mut files: Vec<String> =
                        d.changed.iter().map(|f| format!("changed {f}")).collect();
                    files.extend(d.added.iter().map(|f| format!("added {f}")));
                    files.extend(d.removed.iter().map(|f| format!("removed {f}")));
                    files
                }
                None => Vec::new(),
            };
            let mut d = drift(
                "modified",
                format!(
                    "content hashes to {} but skills.lock pins {}",
                    tree.digest, s.tree
                ),
            );
            d.files = files;
            Some(d)
        }
        Err(e) => Some(drift("modified", e.to_string())),
    }
}

pub fn list(ctx: &Context) -> anyhow::Result<ListReport> {
    let sess = Session::open(ctx)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let scope = scope_of(&sess);
    let agents: Vec<Agent> = targets.iter().flat_map(|t| t.agents.clone()).collect();
    let mut rows = Vec::new();
    for s in lock.skills() {
        let state = if !sess.is_enabled(&s.name) {
            SkillState::Disabled
        } else if !s.is_approved() {
            SkillState::Pending
        } else {
            let drifts: Vec<Drift> = targets
                .iter()
                .filter_map(|t| check_placed(&sess, t, s))
                .collect();
            if drifts.iter().any(|d| d.kind == "modified") {
                SkillState::Modified
            } else if drifts.is_empty() {
                SkillState::Approved
            } else {
                SkillState::Missing
            }
        };
        rows.push(ListRow {
            name: s.name.clone(),
            version: s.version.clone(),
            commit: s.commit.clone(),
            source: s.source.clone(),
            tree: Some(s.tree),
            signer: s.signer.clone(),
            scope,
            agents: agents.clone(),
            state,
            warnings: s.warnings.clone(),
        });
    }
    for (name, decl) in sess.manifest.skills() {
        if lock.get(name).is_none() {
            rows.push(ListRow {
                name: name.clone(),
                version: None,
                commit: None,
                source: decl.source.clone(),
                tree: None,
                signer: None,
                scope,
                agents: agents.clone(),
                state: SkillState::NotLocked,
                warnings: Vec::new(),
            });
        }
    }
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(ListReport {
        project: sess.project.root.clone(),
        skills: rows,
    })
}

/// `--json`: `{"checked": <skills>, "ok": bool, "drift": [{"skill", "path",
/// "kind", "detail", "files"}]}`; exit 3 when `drift` is not empty.
#[derive(Debug, Serialize)]
pub struct VerifyReport {
    pub checked: usize,
    pub ok: bool,
    pub drift: Vec<Drift>,
}

impl VerifyReport {
    pub fn exit(&self) -> crate::error::Exit {
        if self.ok {
            crate::error::Exit::Success
        } else {
            crate::error::Exit::Integrity
        }
    }
}

impl Report for VerifyReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.ok {
            return writeln!(
                out,
                "{} skills verified: every link points at its locked tree and every file matches.",
                self.checked
            );
        }
        for d in &self.drift {
            writeln!(
                out,
                "{}: {} at {}: {}",
                d.skill,
                d.kind,
                d.path.display(),
                d.detail
            )?;
            for f in &d.files {
                writeln!(out, "    {f}")?;
            }
        }
        writeln!(
            out,
            "{} problem{} found; `skillpm install` restores managed links (it never touches folders skillpm did not make)",
            self.drift.len(),
            if self.drift.len() == 1 { "" } else { "s" }
        )
    }
}

pub fn verify(ctx: &Context) -> anyhow::Result<VerifyReport> {
    let sess = Session::open(ctx)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let active: Vec<&LockedSkill> = lock
        .skills()
        .iter()
        .filter(|s| s.is_approved() && sess.is_enabled(&s.name))
        .collect();
    let mut drift: Vec<Drift> = Vec::new();
    for s in &active {
        for t in &targets {
            drift.extend(check_placed(&sess, t, s));
        }
    }
    // Unmanaged skills of the same name that agents would load instead.
    let discovery = roots::discover(&sess.project.root, &ctx.cwd, &sess.env, Default::default());
    for s in &active {
        let ours: Vec<PathBuf> = targets.iter().map(|t| t.root.join(&s.name)).collect();
        if let Some(winner) = discovery.winner(&s.name)
            && !ours.contains(&winner.path)
            && !matches!(link::inspect(&winner.path), Ok(st) if st.is_managed())
        {
            drift.push(Drift {
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
    Ok(VerifyReport {
        checked: active.len(),
        ok: drift.is_empty(),
        drift,
    })
}
