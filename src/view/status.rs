//! The reports of `skillpm list` (the project's skills and their state) and
//! `skillpm verify` (what agents would load, re-hashed; exit 3 on any drift),
//! with `verify --provenance`'s chain per skill.

use crate::escape::Untrusted;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::agents::roots::{Agent, Scope};
use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::placement::drift::{Drift, SkillState};
use crate::project::lock::LockedSkill;
use crate::provenance::{Proof, ProveError};

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
/// "signer", "provenance": "signed"|"unsigned"|"unverified"|"broken"|null, "scope", "agents", "state": "approved"|"pending"|"disabled"|"refused"|
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
        let w = super::name_width(self.skills.iter().map(|s| s.name.as_str()));
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
                // the STATE column (docs/output.md).
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
            super::plural(self.drift.len())
        )
    }
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
    exit_kind: Exit,
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
                    if let Some(v) = &p.publisher {
                        writeln!(
                            out,
                            "    publisher {}",
                            crate::escape::escape(&v.summary(), false)
                        )?;
                        writeln!(
                            out,
                            "              {} (issuer {})",
                            crate::escape::escape(&v.identity, false),
                            crate::escape::escape(&v.issuer, false)
                        )?;
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

impl ListRow {
    /// A locked skill's row; `proof` is its chain as this run proved it
    /// from the cache.
    pub fn locked(
        s: &LockedSkill,
        proof: Result<Proof, ProveError>,
        scope: Scope,
        agents: Vec<Agent>,
        state: SkillState,
    ) -> ListRow {
        let (signer, provenance) = match proof {
            Ok(p) => match p.signed {
                Some(signed) => (Some(signed.key_id), "signed"),
                None => (None, "unsigned"),
            },
            Err(ProveError::Broken(_)) => (None, "broken"),
            Err(_) => (None, "unverified"),
        };
        ListRow {
            name: s.name.clone(),
            version: s.version.clone(),
            commit: s.commit.clone(),
            source: s.source.clone(),
            tree: Some(s.tree),
            signer,
            provenance: Some(provenance),
            scope,
            agents,
            state,
            warnings: s.warnings.clone(),
            accepted_findings: s.accepted().to_vec(),
        }
    }

    /// A skill skills.toml declares that skills.lock does not have yet.
    pub fn declared(name: &str, source: &str, scope: Scope, agents: Vec<Agent>) -> ListRow {
        ListRow {
            name: name.to_owned(),
            version: None,
            commit: None,
            source: source.to_owned(),
            tree: None,
            signer: None,
            provenance: None,
            scope,
            agents,
            state: SkillState::NotLocked,
            warnings: Vec::new(),
            accepted_findings: Vec::new(),
        }
    }
}

impl VerifyReport {
    /// The report of `drift` found over `active` (the approved, enabled
    /// skills), with the audit findings their lock entries accept.
    pub fn new(active: &[&LockedSkill], drift: Vec<Drift>) -> VerifyReport {
        let accepted_findings = active
            .iter()
            .filter(|s| !s.accepted().is_empty())
            .map(|s| AcceptedFindings {
                skill: s.name.clone(),
                tree: s.tree,
                findings: s.accepted().to_vec(),
            })
            .collect();
        VerifyReport {
            accepted_findings,
            checked: active.len(),
            ok: drift.is_empty(),
            drift,
        }
    }
}

impl ProvenanceRow {
    /// The row of `skill` whose chain was proven (`Ok`) or broke.
    pub fn new(skill: &str, proof: Result<Proof, ProveError>) -> ProvenanceRow {
        let broken = proof.as_ref().err().map(|e| BrokenLink {
            link: match e {
                ProveError::Broken(b) => b.link,
                ProveError::RefUnknown { .. } => "ref",
                ProveError::Source { .. }
                | ProveError::Repository { .. }
                | ProveError::Unproven { .. } => "unreadable",
            },
            exit: e.exit().code(),
            exit_kind: e.exit(),
            message: e.to_string(),
        });
        let chain = proof.ok();
        ProvenanceRow {
            skill: skill.to_owned(),
            ok: chain.is_some(),
            trust: match &chain {
                Some(p) if p.signed.is_some() => "signed",
                Some(_) => "unsigned",
                None => "broken",
            },
            chain,
            broken,
        }
    }
}

impl ProvenanceReport {
    pub fn new(skills: Vec<ProvenanceRow>) -> ProvenanceReport {
        ProvenanceReport {
            checked: skills.len(),
            ok: skills.iter().all(|r| r.ok),
            skills,
        }
    }
}
