//! The report of `skillpm audit`: findings per skill, and which fail.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::audit::{self, Finding, Severity};
use crate::digest::Digest;
use crate::error::Exit;

/// `--json`: `{"fail_on", "failed", "skills": [{"name", "path", "tree",
/// "findings": [{"rule", "severity", "file", "line", "excerpt", "why"}],
/// "accepted": ["rule@file:line"]}]}`. `failed` counts the skills with a
/// finding at or above `fail_on` that skills.lock does not accept.
#[derive(Debug, Serialize)]
pub struct AuditReport {
    pub fail_on: Severity,
    pub failed: usize,
    pub skills: Vec<AuditedSkill>,
}

#[derive(Debug, Serialize)]
pub struct AuditedSkill {
    pub name: String,
    pub path: PathBuf,
    /// The locked tree (project audits only).
    pub tree: Option<Digest>,
    pub findings: Vec<Finding>,
    /// Findings skills.lock accepts for this tree.
    pub accepted: Vec<String>,
}

impl AuditReport {
    /// The report of `skills`, counting those that fail at `fail_on`.
    pub fn new(fail_on: Severity, skills: Vec<AuditedSkill>) -> AuditReport {
        let failed = skills
            .iter()
            .filter(|s| {
                s.findings
                    .iter()
                    .any(|f| f.severity >= fail_on && !s.accepted.contains(&f.key()))
            })
            .count();
        AuditReport {
            fail_on,
            failed,
            skills,
        }
    }

    /// Exit 5 when a skill has an unaccepted finding at or above `fail_on`.
    pub fn exit(&self) -> Exit {
        if self.failed > 0 {
            Exit::Unsafe
        } else {
            Exit::Success
        }
    }
}

impl Report for AuditReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for s in &self.skills {
            let worst =
                audit::worst(&s.findings).map_or("clean".to_owned(), |w| format!("worst {w}"));
            writeln!(
                out,
                "{}  {}  {} finding{} ({worst})",
                s.name,
                s.path.display(),
                s.findings.len(),
                super::plural(s.findings.len())
            )?;
            for f in &s.findings {
                let accepted = if s.accepted.contains(&f.key()) {
                    "  (accepted in skills.lock)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "  {:<8} {:<24} {}: {}{accepted}",
                    f.severity.as_str(),
                    f.rule,
                    f.place(),
                    f.excerpt
                )?;
            }
        }
        writeln!(
            out,
            "{} skill{} audited; {} with findings at or above {}",
            self.skills.len(),
            super::plural(self.skills.len()),
            self.failed,
            self.fail_on
        )
    }
}
