//! The report of `skillpm list --all`: every skill folder agents read, in
//! precedence order, with duplicates and the folders scanned.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::agents::roots::{Agent, ListedRoot, Scope};
use crate::escape::{Untrusted, path_field};
use crate::skill::Diagnostic;

/// The `list --all` report.
///
/// JSON shape (stable):
/// ```json
/// {"project": "/work/app",
///  "skills": [{"name": "pdf", "scope": "repo", "agent": "claude",
///              "path": "/work/app/.claude/skills/pdf", "link_target": null,
///              "valid": true, "shadowed_by": null, "placed_by": null,
///              "description": "…",
///              "errors": [{"file": "SKILL.md", "field": "name", "message": "…"}],
///              "warnings": []}],
///  "duplicates": [{"name": "pdf", "winner": "/work/app/.claude/skills/pdf",
///                  "paths": ["…", "…"], "same_target": false}],
///  "roots": [{"scope": "repo", "agent": "agents", "path": "…", "exists": true,
///             "skills": 1, "truncated": false}], "roots_scanned": 130,
///  "warnings": ["…"]}
/// ```
/// Skills are in precedence order (repo nearest the working directory
/// first, then user, system, admin). `shadowed_by` is the path of the skill
/// that wins over a valid one; invalid skills never win or shadow.
/// Diagnostics' `file` is relative to the skill's `path`. `placed_by` names
/// another tool that placed the skill there when it left a record of it
/// (`gh-skill`: its keys in SKILL.md; `pnpm`: a link into the project's
/// `node_modules` package), as `import` reads them.
#[derive(Debug, Clone, Serialize)]
pub struct DiscoveryReport {
    pub project: PathBuf,
    pub skills: Vec<ListedSkill>,
    pub duplicates: Vec<ListedDuplicate>,
    /// The skill folders that exist (of every folder every agent reads).
    pub roots: Vec<ListedRoot>,
    /// How many folders were looked at (the agents table's, see `skillpm agents`).
    pub roots_scanned: usize,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListedSkill {
    pub name: String,
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
    pub link_target: Option<PathBuf>,
    pub valid: bool,
    pub shadowed_by: Option<PathBuf>,
    pub placed_by: Option<String>,
    pub description: Option<String>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListedDuplicate {
    pub name: String,
    pub winner: Option<PathBuf>,
    pub paths: Vec<PathBuf>,
    pub same_target: bool,
}

impl Report for DiscoveryReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.skills.is_empty() {
            let existing = self.roots.len();
            return writeln!(
                out,
                "no skills found ({} skill folders scanned, {existing} of them exist)",
                self.roots_scanned
            );
        }
        let name_w = super::name_width(self.skills.iter().map(|s| s.name.as_str()));
        writeln!(out, "{:<name_w$}  SCOPE   AGENT     STATUS    PATH", "NAME")?;
        for s in &self.skills {
            let status = match (s.valid, &s.shadowed_by) {
                (false, _) => "invalid",
                (true, Some(_)) => "shadowed",
                (true, None) => "ok",
            };
            write!(
                out,
                "{:<name_w$}  {:<6}  {:<8}  {status:<8}  {}",
                Untrusted(&s.name),
                s.scope.as_str(),
                s.agent.as_str(),
                path_field(&s.path)
            )?;
            if let Some(target) = &s.link_target {
                write!(out, " -> {}", path_field(target))?;
            }
            if let Some(tool) = &s.placed_by {
                write!(out, " (placed by {tool})")?;
            }
            writeln!(out)?;
            if let Some(by) = &s.shadowed_by {
                writeln!(out, "    shadowed by {}", path_field(by))?;
            }
            for e in &s.errors {
                writeln!(out, "    error: {}", Untrusted(&e.message))?;
            }
        }
        for d in &self.duplicates {
            writeln!(out)?;
            let note = if d.same_target {
                " (all the same folder, linked in several places)"
            } else {
                ""
            };
            writeln!(
                out,
                "duplicate name `{}` in {} folders{note}:",
                Untrusted(&d.name),
                d.paths.len()
            )?;
            for p in &d.paths {
                let mark = if d.winner.as_ref() == Some(p) {
                    "wins "
                } else {
                    "     "
                };
                writeln!(out, "  {mark} {}", path_field(p))?;
            }
        }
        let valid = self.skills.iter().filter(|s| s.valid).count();
        writeln!(out)?;
        writeln!(
            out,
            "{} skill folders: {valid} valid, {} invalid, {} duplicate names",
            self.skills.len(),
            self.skills.len() - valid,
            self.duplicates.len()
        )
    }
}
