//! `skillpm update [name...]` (re-resolve, show what changed, approve) and
//! `skillpm outdated` (only report).

use crate::escape::Untrusted;
use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;

use super::approval::review;
use super::place::sync_links;
use super::session::{Session, not_in_project};
use crate::digest::Digest;
use crate::error::Exit;
use crate::ops::fail;
use crate::ops::{Context, Report};
use crate::placement::LinkChanges;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::sources::candidate::Candidate;
use crate::sources::load::resolve_by_source;
use crate::view::approval::Summary;

#[derive(Debug, Clone, Default)]
pub struct UpdateOptions {
    /// Empty: every locked skill.
    pub names: Vec<String>,
    pub yes: bool,
    /// `--strict`: refuse new content `skillpm check` refuses.
    pub strict: bool,
    /// `--accept-findings`: accept the audit findings of what is approved.
    pub accept_findings: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UpdateStatus {
    Unchanged,
    Updated,
    Declined,
}

#[derive(Debug, Serialize)]
pub struct UpdatedSkill {
    pub name: String,
    pub status: UpdateStatus,
    pub from_version: Option<String>,
    pub to_version: Option<String>,
    pub from_tree: Digest,
    pub to_tree: Digest,
    /// Git skills: the commit locked before and the one resolved now (an
    /// unversioned repository is otherwise told apart by digests alone).
    pub from_commit: Option<String>,
    pub to_commit: Option<String>,
}

/// `--json`: `{"skills": [{"name", "status": "unchanged"|"updated"|"declined",
/// "from_version", "to_version", "from_tree", "to_tree", "from_commit",
/// "to_commit"}], "summaries": [...],
/// "links": {...}, "lock_written"}`.
#[derive(Debug, Serialize)]
pub struct UpdateReport {
    pub skills: Vec<UpdatedSkill>,
    pub summaries: Vec<Summary>,
    pub links: LinkChanges,
    pub lock_written: bool,
}

impl Report for UpdateReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for s in &self.skills {
            // A version when the source gives one, else the git commit.
            let v = |v: &Option<String>, commit: &Option<String>| {
                v.clone()
                    .or_else(|| commit.as_deref().map(|c| short(c).to_owned()))
                    .unwrap_or_else(|| "-".into())
            };
            match s.status {
                UpdateStatus::Unchanged => writeln!(out, "{} is up to date", s.name)?,
                UpdateStatus::Updated => writeln!(
                    out,
                    "{} updated {} -> {} ({} -> {})",
                    s.name,
                    v(&s.from_version, &s.from_commit),
                    v(&s.to_version, &s.to_commit),
                    &s.from_tree.hex()[..12],
                    &s.to_tree.hex()[..12]
                )?,
                UpdateStatus::Declined => writeln!(
                    out,
                    "{} update declined; kept {}",
                    s.name,
                    &s.from_tree.hex()[..12]
                )?,
            }
        }
        Ok(())
    }
}

fn require_lock(sess: &Session<'_>) -> anyhow::Result<Lockfile> {
    match &sess.lock {
        Some(lock) => Ok(lock.clone()),
        None => fail(
            Exit::Other,
            format!(
                "{} does not exist yet; run `skillpm install` first",
                sess.lock_path().display()
            ),
        ),
    }
}

fn selected<'l>(lock: &'l Lockfile, names: &[String]) -> anyhow::Result<Vec<&'l LockedSkill>> {
    if names.is_empty() {
        return Ok(lock.skills().iter().collect());
    }
    names
        .iter()
        .map(|n| {
            lock.get(n).ok_or_else(|| {
                not_in_project(n, lock.skills().iter().map(|s| s.name.as_str()).collect())
            })
        })
        .collect()
}

pub fn update(ctx: &Context, opts: &UpdateOptions) -> anyhow::Result<UpdateReport> {
    let mut sess = Session::open(ctx, opts.strict)?;
    sess.accept_findings = opts.accept_findings;
    let original = require_lock(&sess)?;
    let chosen = selected(&original, &opts.names)?;
    // The install policy judges every source before one is read (docs/policy.md).
    super::place::check_policy(&sess, &chosen)?;
    let candidates = resolve_by_source(
        &mut sess.workspace(),
        chosen.iter().map(|s| (s.name.as_str(), s.source.as_str())),
    )?;
    let mut lock = original.clone();
    let changed: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| {
            original
                .get(&c.locked.name)
                .is_some_and(|l| l.tree != c.locked.tree)
        })
        .collect();
    let reviewed = review(&sess, changed.iter().copied(), &original, opts.yes)?;
    let (summaries, answers) = (reviewed.summaries, reviewed.answers);
    let report = apply_answers(
        &candidates,
        &changed,
        (&summaries, &answers),
        &original,
        &mut lock,
    );
    let enabled = sess.active(&lock);
    // What was not re-resolved keeps its old chain: prove it before linking.
    super::materialize::materialize(&mut sess, &enabled)?;
    let links = sync_links(&sess, &enabled)?;
    let lock_written = sess.save_lock(lock)?;
    Ok(UpdateReport {
        skills: report,
        summaries,
        links,
        lock_written,
    })
}

/// Writes each re-resolved skill into `lock` as answered (same content
/// keeps its approval; a declined change keeps the locked entry) and says
/// what happened to it.
fn apply_answers(
    candidates: &[Candidate],
    changed: &[&Candidate],
    (summaries, answers): (&[Summary], &[bool]),
    original: &Lockfile,
    lock: &mut Lockfile,
) -> Vec<UpdatedSkill> {
    let mut report = Vec::new();
    for c in candidates {
        let Some(old) = original.get(&c.locked.name) else {
            continue;
        };
        // Same content keeps its approval (and refreshes where it came from).
        let (status, approved) = match changed.iter().position(|x| x.locked.name == c.locked.name) {
            None => (UpdateStatus::Unchanged, old.approved),
            Some(i) if answers[i] => (UpdateStatus::Updated, Some(c.locked.tree)),
            Some(_) => (UpdateStatus::Declined, None),
        };
        if status != UpdateStatus::Declined {
            let mut locked = LockedSkill {
                approved,
                ..c.locked.clone()
            };
            match changed.iter().position(|x| x.locked.name == c.locked.name) {
                // Same content: what was accepted for it still holds.
                None => locked.accepted_findings = old.accepted_findings.clone(),
                Some(i) => super::approval::record_approval(&mut locked, summaries.get(i), true),
            }
            lock.upsert(locked);
        }
        report.push(UpdatedSkill {
            name: c.locked.name.clone(),
            status,
            from_version: old.version.clone(),
            to_version: c.locked.version.clone(),
            from_tree: old.tree,
            to_tree: c.locked.tree,
            from_commit: old.commit.clone(),
            to_commit: c.locked.commit.clone(),
        });
    }
    report
}

/// One row of `outdated`.
#[derive(Debug, Serialize)]
pub struct OutdatedRow {
    pub name: String,
    pub source: String,
    pub outdated: bool,
    pub locked_version: Option<String>,
    pub latest_version: Option<String>,
    /// What identifies the locked content upstream: artifact digest, tree
    /// digest (v0.1.0) or commit.
    pub locked: String,
    pub latest: Option<String>,
    /// Why `latest` is unknown (source unreachable, skill gone).
    pub error: Option<String>,
}

/// `--json`: `{"skills": [{"name", "source", "outdated", "locked_version",
/// "latest_version", "locked", "latest", "error"}]}`; always exit 0.
#[derive(Debug, Serialize)]
pub struct OutdatedReport {
    pub skills: Vec<OutdatedRow>,
}

impl Report for OutdatedReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let rows: Vec<&OutdatedRow> = self
            .skills
            .iter()
            .filter(|r| r.outdated || r.error.is_some())
            .collect();
        if rows.is_empty() {
            return writeln!(out, "All {} skills are up to date.", self.skills.len());
        }
        for r in rows {
            match &r.error {
                Some(e) => writeln!(
                    out,
                    "{}  ({}): cannot check: {}",
                    Untrusted(&r.name),
                    Untrusted(&r.source),
                    Untrusted(e)
                )?,
                None => writeln!(
                    out,
                    "{}  {} -> {}  ({})  run `skillpm update {}`",
                    Untrusted(&r.name),
                    Untrusted(r.locked_version.as_deref().unwrap_or(short(&r.locked))),
                    Untrusted(
                        r.latest_version.as_deref().unwrap_or_else(|| r
                            .latest
                            .as_deref()
                            .map(short)
                            .unwrap_or("?"))
                    ),
                    Untrusted(&r.source),
                    Untrusted(&r.name)
                )?,
            }
        }
        Ok(())
    }
}

fn short(id: &str) -> &str {
    let hex = id.strip_prefix("sha256:").unwrap_or(id);
    hex.get(..hex.len().min(12)).unwrap_or(hex)
}

pub fn outdated(ctx: &Context) -> anyhow::Result<OutdatedReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = require_lock(&sess)?;
    let mut by_source: BTreeMap<String, Vec<&LockedSkill>> = BTreeMap::new();
    for s in lock.skills() {
        by_source.entry(s.source.clone()).or_default().push(s);
    }
    let mut rows = Vec::new();
    for (source_name, skills) in by_source {
        // A source that cannot be read: every skill of it says why.
        let latest = latest_of(&mut sess, &source_name, &skills)
            .unwrap_or_else(|e| vec![Err(format!("{e:#}")); skills.len()]);
        for (s, latest) in skills.iter().zip(latest) {
            let locked = crate::sources::load::locked_identity(s);
            let (id, version, error) = match latest {
                Ok((None, version)) => (
                    None,
                    version,
                    Some("no longer offered by the source".to_owned()),
                ),
                Ok((Some(id), version)) => (Some(id), version, None),
                Err(e) => (None, None, Some(e)),
            };
            rows.push(OutdatedRow {
                name: s.name.clone(),
                source: source_name.clone(),
                outdated: id.as_deref().is_some_and(|l| l != locked),
                locked_version: s.version.clone(),
                latest_version: version,
                latest: id,
                locked,
                error,
            });
        }
    }
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(OutdatedReport { skills: rows })
}

/// For each skill: the upstream identity (same kind as `sources::load::locked_identity`) and
/// version, as its source's kind says (`crate::sources`, latest).
fn latest_of(
    sess: &mut Session<'_>,
    source_name: &str,
    skills: &[&LockedSkill],
) -> anyhow::Result<Vec<crate::sources::Latest>> {
    crate::sources::load::latest(&mut sess.workspace(), source_name, skills)
}
