//! The report of `skillpm audit`: findings per skill, and which fail.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::audit::{self, Finding, Severity};
use crate::digest::Digest;
use crate::error::Exit;
use crate::escape::Untrusted;

/// `--json`: `{"fail_on", "failed", "skills": [{"name", "path", "tree",
/// "findings": [{"rule", "severity", "file", "line", "excerpt", "why"}],
/// "accepted": ["rule@file:line"], "run": {"scripts": [{"file",
/// "interpreter", "exit", "timed_out", "ms", "contacted"}], "skipped":
/// [{"file", "why"}], "unfinished", "deadline_ms", "ms"}}]}` (`run` with
/// `--run` only). `failed` counts the skills with a
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
    /// `--run`: the scripts run in the sandbox (their findings are among
    /// `findings`, rules `run-…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::sandbox::SkillRun>,
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
                Untrusted(&s.name),
                crate::escape::path_field(&s.path),
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
                    Untrusted(&f.place()),
                    Untrusted(&f.excerpt)
                )?;
            }
            if let Some(run) = &s.run {
                human_run(out, run)?;
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

/// `  ran scripts/x.py (python3): exit 0, 41 ms` per script, then what
/// SKILL.md names that was not run.
fn human_run(out: &mut dyn Write, run: &crate::sandbox::SkillRun) -> std::io::Result<()> {
    if run.scripts.is_empty() && run.skipped.is_empty() {
        return writeln!(out, "  ran nothing: no script to run");
    }
    for s in &run.scripts {
        let how = s.interpreter.as_deref().unwrap_or("program");
        let end = match (s.timed_out, s.exit) {
            (true, _) if run.capped => "killed at the deadline's wall-clock cap".to_owned(),
            (true, _) => "killed at the deadline".to_owned(),
            (false, Some(code)) => format!("exit {code}"),
            (false, None) => "ended by a signal".to_owned(),
        };
        let file = std::iter::once(s.file.as_str())
            .chain(s.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let hook = (s.hook.as_deref()).map_or(String::new(), |h| format!(", as hook {h}"));
        writeln!(
            out,
            "  ran {} ({how}{}): {end}, {} ms",
            Untrusted(&file),
            Untrusted(&hook),
            s.ms
        )?;
        if !s.contacted.is_empty() {
            writeln!(out, "    contacted: {}", Untrusted(&s.contacted.join(", ")))?;
        }
    }
    for s in &run.skipped {
        writeln!(
            out,
            "  not run {}: {}",
            Untrusted(&s.file),
            Untrusted(&s.why)
        )?;
    }
    if run.unfinished {
        let limit = if run.capped {
            format!(
                "its deadline's wall-clock cap ({} ms of it waiting for a CPU)",
                run.waited_ms
            )
        } else {
            format!("its deadline ({} ms)", run.deadline_ms)
        };
        writeln!(
            out,
            "  unfinished: the run reached {limit}; what came after was not observed"
        )?;
    }
    Ok(())
}
