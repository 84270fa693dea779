//! `skillpm list` (the project's skills and their state) and `skillpm verify`
//! (re-hash what agents would load; exit 3 on any drift).

use crate::shown::Untrusted;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::placement::{Target, record_at, targets};
use super::session::Session;
use crate::approve::diff_trees;
use crate::digest::Digest;
use crate::link::{self, LinkKind, LinkState};
use crate::ops::{Context, Report};
use crate::project::lock::LockedSkill;
use crate::project::state::Placements;
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
    /// The key id that signed the index vouching for it, verified in this
    /// run from the cache; never copied from the lock's `signer` record.
    pub signer: Option<String>,
    /// `signed`, `unsigned` (the source pins no key), `unverified` (the
    /// cache holds no snapshot to prove it; `skillpm install` or `verify
    /// --provenance` proves it), `broken` (a link of the chain fails: run
    /// `skillpm verify --provenance`), or `null` when not locked.
    pub provenance: Option<&'static str>,
    pub scope: Scope,
    pub agents: Vec<Agent>,
    pub state: SkillState,
    /// The Agent Skills rules the locked content breaks (from the lock).
    pub warnings: Vec<String>,
    /// Audit findings accepted for the approved tree (`rule@file:line`,
    /// from the lock; docs/audit.md).
    pub accepted_findings: Vec<String>,
}

/// `--json`: `{"project", "skills": [{"name", "version", "commit", "source", "tree",
/// "signer", "provenance": "signed"|"unsigned"|"unverified"|"broken"|null, "scope", "agents", "state": "approved"|"pending"|"disabled"|
/// "missing"|"modified"|"not-locked", "warnings": ["SKILL.md: …"],
/// "accepted_findings": ["rule@file:line"]}]}`.
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
        let w = crate::ops::name_width(self.skills.iter().map(|s| s.name.as_str()));
        writeln!(
            out,
            "{:w$}  {:10}  {:12}  {:14}  {:16}  STATE",
            "NAME", "VERSION", "SOURCE", "TREE", "SIGNER"
        )?;
        for s in &self.skills {
            let state = serde_json::to_value(s.state)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            writeln!(
                out,
                "{:w$}  {:10}  {:12}  {:14}  {:16}  {state} ({} {})",
                Untrusted(&s.name),
                // Unversioned git skills show their commit: `@80e0b5ee4`.
                // Text from the lock is one escaped field: it cannot redraw
                // the STATE column (docs/design-changes.md, third pass).
                Untrusted(&s.version.clone().unwrap_or_else(|| {
                    s.commit
                        .as_deref()
                        .map(|c| format!("@{}", c.get(..c.len().min(9)).unwrap_or(c)))
                        .unwrap_or_else(|| "-".into())
                })),
                Untrusted(&s.source),
                s.tree
                    .map_or_else(|| "-".into(), |t| t.hex()[..12].to_owned()),
                // A key id is shown whole (16 hex digits, as minisign and
                // every other message print it): one form everywhere.
                Untrusted(s.signer.as_deref().or(s.provenance).unwrap_or("-")),
                s.scope,
                s.agents
                    .iter()
                    .map(|a| a.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            )?;
            for w in &s.warnings {
                writeln!(out, "  warning: {}", Untrusted(w))?;
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
    /// `foreign`, `shadowed`, `provenance` (the lock entry's chain to its
    /// source is broken; `path` is skills.lock).
    pub kind: &'static str,
    pub detail: String,
    /// For `modified`: the files that differ from the locked tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

/// Checks one locked skill in one root.
fn check_placed(
    sess: &Session<'_>,
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
        LinkState::Foreign { .. } if link::hash_placed(&path).is_ok_and(|h| h.digest == s.tree) => {
            return None;
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
            format!(
                "a dangling link: {} is gone from the store (or this project was copied or mounted without the cache it links into); run `skillpm install` to restore it, and set `link-mode = \"auto\"` under [install] in skills.toml so the project holds real folders that travel with it",
                target.display()
            ),
        ));
    }
    match link::hash_placed(&path) {
        Ok(tree) if tree.digest == s.tree => None,
        Ok(tree) => {
            let fix = fix_for_edited(&state);
            let mut d = drift(
                "modified",
                format!(
                    "content hashes to {} but skills.lock pins {}; {fix}",
                    tree.digest, s.tree
                ),
            );
            if let Some(locked) = sess.state.load_tree(&s.tree) {
                let diff = diff_trees(&locked, &tree);
                for (how, files) in [
                    ("changed", &diff.changed),
                    ("added", &diff.added),
                    ("removed", &diff.removed),
                ] {
                    d.files.extend(files.iter().map(|f| format!("{how} {f}")));
                }
            }
            Some(d)
        }
        Err(e) => Some(drift("modified", e.to_string())),
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

pub fn list(ctx: &Context) -> anyhow::Result<ListReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let scope = sess.manifest.install().scope.root_scope();
    let agents: Vec<Agent> = targets.iter().flat_map(|t| t.agents.clone()).collect();
    let placements = super::placement::placements_for(&sess, &targets);
    let locked: Vec<&LockedSkill> = lock.skills().iter().collect();
    let proofs = super::proof::prove_each(&mut sess, &locked, false)?;
    let mut rows = Vec::new();
    for (s, proof) in lock.skills().iter().zip(proofs) {
        let (signer, provenance) = match proof {
            Ok(p) => match p.signed {
                Some(signed) => (Some(signed.key_id), "signed"),
                None => (None, "unsigned"),
            },
            Err(crate::provenance::ProveError::Broken(_)) => (None, "broken"),
            Err(_) => (None, "unverified"),
        };
        let state = if !sess.is_enabled(&s.name) {
            SkillState::Disabled
        } else if !s.is_approved() {
            SkillState::Pending
        } else {
            let drifts: Vec<Drift> = targets
                .iter()
                .filter_map(|t| check_placed(&sess, &placements, t, s))
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
            signer,
            provenance: Some(provenance),
            scope,
            agents: agents.clone(),
            state,
            warnings: s.warnings.clone(),
            accepted_findings: s.accepted().to_vec(),
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
                provenance: None,
                scope,
                agents: agents.clone(),
                state: SkillState::NotLocked,
                warnings: Vec::new(),
                accepted_findings: Vec::new(),
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
/// "kind", "detail", "files"}], "accepted_findings": [{"skill", "tree",
/// "findings": ["rule@file:line"]}]}`; exit 3 when `drift` is not empty.
#[derive(Debug, Serialize)]
pub struct VerifyReport {
    pub checked: usize,
    pub ok: bool,
    pub drift: Vec<Drift>,
    /// Audit findings skills.lock accepts for the approved trees, so a
    /// reviewer sees what was let through (docs/audit.md).
    pub accepted_findings: Vec<AcceptedFindings>,
}

#[derive(Debug, Serialize)]
pub struct AcceptedFindings {
    pub skill: String,
    pub tree: Digest,
    pub findings: Vec<String>,
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
        for a in &self.accepted_findings {
            writeln!(
                out,
                "{}: accepted audit findings: {}",
                a.skill,
                a.findings.join(", ")
            )?;
        }
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
            crate::ops::plural(self.drift.len())
        )
    }
}

pub fn verify(ctx: &Context) -> anyhow::Result<VerifyReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let placements = super::placement::placements_for(&sess, &targets);
    let active = sess.active(&lock);
    let mut drift: Vec<Drift> = Vec::new();
    // The lock itself must still be what its sources vouch for.
    let proofs = super::proof::prove_each(&mut sess, &active, true)?;
    for (s, proof) in active.iter().zip(proofs) {
        if let Err(e) = proof {
            drift.push(Drift {
                skill: s.name.clone(),
                path: sess.lock_path(),
                kind: "provenance",
                detail: e.to_string(),
                files: Vec::new(),
            });
        }
    }
    for s in &active {
        for t in &targets {
            drift.extend(check_placed(&sess, &placements, t, s));
        }
    }
    // Unmanaged skills of the same name that agents would load instead
    // (a winner in a shared folder may be another project's placement).
    let placements = sess.state.placements();
    let discovery = roots::discover(&sess.project.root, &ctx.cwd, &sess.env, Default::default());
    for s in &active {
        let ours: Vec<PathBuf> = targets.iter().map(|t| t.root.join(&s.name)).collect();
        if let Some(winner) = discovery.winner(&s.name)
            && !ours.contains(&winner.path)
            && !matches!(link::inspect(&winner.path, record_at(&placements, &winner.path)), Ok(st) if st.is_managed())
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
    let accepted_findings = active
        .iter()
        .filter(|s| !s.accepted().is_empty())
        .map(|s| AcceptedFindings {
            skill: s.name.clone(),
            tree: s.tree,
            findings: s.accepted().to_vec(),
        })
        .collect();
    Ok(VerifyReport {
        accepted_findings,
        checked: active.len(),
        ok: drift.is_empty(),
        drift,
    })
}

/// One skill's chain in `verify --provenance`.
#[derive(Debug, Serialize)]
pub struct ProvenanceRow {
    pub skill: String,
    pub ok: bool,
    /// `signed`, `unsigned` (the source pins no key), or `broken`.
    pub trust: &'static str,
    /// Every link that was proven (absent when broken).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<crate::provenance::Proof>,
    /// The link that broke and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken: Option<BrokenLink>,
}

#[derive(Debug, Serialize)]
pub struct BrokenLink {
    /// `source`, `index`, `snapshot`, `signer`, `entry`, `url`, `artifact`,
    /// `tree`, `repository`, or `unreadable` (the source could not be read).
    pub link: &'static str,
    pub message: String,
    pub exit: u8,
    #[serde(skip)]
    exit_kind: crate::error::Exit,
}

/// `verify --provenance --json`: `{"checked", "ok", "skills": [{"skill", "ok",
/// "trust": "signed"|"unsigned"|"broken", "chain": {"skill", "source",
/// "source_url", "format", "index", "index_digest", "vouched_by":
/// "snapshot"|"versioned-snapshot"|"current-index"|null, "signed": null |
/// {"key_id", "version", "expires"}, "url", "artifact", "commit", "git_ref"
/// (git only): {"reference", "tip", "by": "remote"|"cache"|"record"}, "tree",
/// "tree_recorded", "approved"}, "broken": {"link", "message", "exit"}}]}`;
/// exit 3 when any chain is broken (or the exit code of an unreadable source).
#[derive(Debug, Serialize)]
pub struct ProvenanceReport {
    pub checked: usize,
    pub ok: bool,
    pub skills: Vec<ProvenanceRow>,
}

impl ProvenanceReport {
    pub fn exit(&self) -> crate::error::Exit {
        use crate::error::Exit;
        let mut exit = Exit::Success;
        for b in self.skills.iter().filter_map(|r| r.broken.as_ref()) {
            if b.exit_kind == Exit::Integrity {
                return Exit::Integrity;
            }
            exit = b.exit_kind;
        }
        exit
    }
}

impl Report for ProvenanceReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for row in &self.skills {
            match (&row.chain, &row.broken) {
                (Some(p), _) => {
                    let trust = match &p.signed {
                        Some(s) => format!(
                            "signed by key {} (version {}{})",
                            s.key_id,
                            s.version,
                            s.expires
                                .as_deref()
                                .map(|e| format!(", expires {e}"))
                                .unwrap_or_default()
                        ),
                        None => "unsigned".into(),
                    };
                    writeln!(out, "{}: ok, {trust}", row.skill)?;
                    writeln!(out, "    source    {} ({})", p.source, p.source_url)?;
                    if let Some(index) = &p.index {
                        writeln!(
                            out,
                            "    index     {index} {}",
                            p.index_digest.map(|d| d.to_string()).unwrap_or_default()
                        )?;
                    }
                    if let Some(url) = &p.url {
                        writeln!(out, "    url       {url}")?;
                    }
                    if let Some(a) = &p.artifact {
                        writeln!(out, "    artifact  {a}")?;
                    }
                    if let Some(c) = &p.commit {
                        writeln!(out, "    commit    {c}")?;
                    }
                    if let Some(r) = &p.git_ref {
                        writeln!(
                            out,
                            "    ref       on `{}` (at {}, checked by {})",
                            r.reference, r.tip, r.by
                        )?;
                    }
                    writeln!(
                        out,
                        "    tree      {}{}",
                        p.tree,
                        if p.approved {
                            " (approved)"
                        } else {
                            " (not approved)"
                        }
                    )?;
                }
                (None, Some(b)) => {
                    writeln!(out, "{}: BROKEN at {}: {}", row.skill, b.link, b.message)?
                }
                (None, None) => {}
            }
        }
        let broken = self.skills.iter().filter(|r| !r.ok).count();
        if broken == 0 {
            writeln!(out, "{} skills proven against their sources.", self.checked)
        } else {
            writeln!(
                out,
                "{broken} of {} skills could not be proven.",
                self.checked
            )
        }
    }
}

/// `skillpm verify --provenance`: every locked skill's chain, link by link.
pub fn verify_provenance(ctx: &Context) -> anyhow::Result<ProvenanceReport> {
    use crate::error::Classify;
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let all: Vec<&LockedSkill> = lock.skills().iter().collect();
    let proofs = super::proof::prove_each(&mut sess, &all, true)?;
    let mut skills = Vec::with_capacity(all.len());
    for (s, proof) in all.iter().zip(proofs) {
        let broken = proof.as_ref().err().map(|e| BrokenLink {
            link: match e {
                crate::provenance::ProveError::Broken(b) => b.link,
                crate::provenance::ProveError::RefUnknown { .. } => "ref",
                crate::provenance::ProveError::Source { .. }
                | crate::provenance::ProveError::Repository { .. }
                | crate::provenance::ProveError::Unproven { .. } => "unreadable",
            },
            exit: e.exit().code(),
            exit_kind: e.exit(),
            message: e.to_string(),
        });
        let chain = proof.ok();
        skills.push(ProvenanceRow {
            skill: s.name.clone(),
            ok: chain.is_some(),
            trust: match &chain {
                Some(p) if p.signed.is_some() => "signed",
                Some(_) => "unsigned",
                None => "broken",
            },
            chain,
            broken,
        });
    }
    Ok(ProvenanceReport {
        checked: skills.len(),
        ok: skills.iter().all(|r| r.ok),
        skills,
    })
}
