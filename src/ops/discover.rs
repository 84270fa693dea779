//! `skillpm list --all`: every skill every agent can see from here, with its
//! scope, agent folder, validity and what shadows it.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, Report};
use crate::error::{Exit, OpError};
use crate::roots::{self, Agent, Discovery, Env, ListedRoot, ScanLimits, Scope};
use crate::skill::Diagnostic;

/// The project folder for `ctx`: `--project` (relative to the working
/// directory; it must be an existing folder), else the nearest ancestor
/// holding `skills.toml`, else `.git`, else the working directory.
pub fn project_dir(ctx: &Context) -> Result<PathBuf, OpError> {
    let Some(given) = &ctx.project else {
        return Ok(crate::project::find_project_root(&ctx.cwd));
    };
    let why = match std::fs::canonicalize(ctx.cwd.join(given)) {
        Ok(dir) if dir.is_dir() => return Ok(dir),
        Ok(_) => "not a folder".to_owned(),
        Err(e) => e.to_string(),
    };
    Err(OpError::new(
        Exit::Usage,
        format!("--project {}: {why}", given.display()),
    ))
}

/// Discovery as `list`, `show` and the MCP server see it: every root of the
/// current project and user, default scan limits. Scan problems are
/// warned about on stderr and kept in the result.
pub fn discover_here(ctx: &Context) -> Result<Discovery, OpError> {
    let discovery = roots::discover(
        &project_dir(ctx)?,
        &ctx.cwd,
        &Env::from_process(),
        ScanLimits::default(),
    );
    for w in &discovery.warnings {
        ctx.ui.warn(w);
    }
    Ok(discovery)
}

/// The `list --all` report.
///
/// JSON shape (stable):
/// ```json
/// {"project": "/work/app",
///  "skills": [{"name": "pdf", "scope": "repo", "agent": "claude",
///              "path": "/work/app/.claude/skills/pdf", "link_target": null,
///              "valid": true, "shadowed_by": null, "description": "…",
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
/// Diagnostics' `file` is relative to the skill's `path`.
#[derive(Debug, Clone, Serialize)]
pub struct ListReport {
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

pub fn list(ctx: &Context) -> anyhow::Result<ListReport> {
    let d = discover_here(ctx)?;
    Ok(ListReport {
        project: d.project,
        skills: d
            .skills
            .into_iter()
            .map(|s| ListedSkill {
                valid: s.check.is_loadable(),
                description: s.check.skill.as_ref().map(|m| m.description.clone()),
                errors: relative(s.check.errors, &s.path),
                warnings: relative(s.check.warnings, &s.path),
                name: s.name,
                scope: s.scope,
                agent: s.agent,
                path: s.path,
                link_target: s.link_target,
                shadowed_by: s.shadowed_by,
            })
            .collect(),
        duplicates: d
            .duplicates
            .into_iter()
            .map(|x| ListedDuplicate {
                name: x.name,
                winner: x.winner,
                paths: x.paths,
                same_target: x.same_target,
            })
            .collect(),
        roots_scanned: d.roots.len(),
        roots: d
            .roots
            .iter()
            .filter(|r| r.exists)
            .map(ListedRoot::from)
            .collect(),
        warnings: d.warnings,
    })
}

fn relative(diagnostics: Vec<Diagnostic>, dir: &Path) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|d| d.relative_to(dir))
        .collect()
}

impl Report for ListReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.skills.is_empty() {
            let existing = self.roots.len();
            return writeln!(
                out,
                "no skills found ({} skill folders scanned, {existing} of them exist)",
                self.roots_scanned
            );
        }
        let name_w = crate::ops::name_width(self.skills.iter().map(|s| s.name.as_str()));
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
                s.name,
                s.scope.as_str(),
                s.agent.as_str(),
                s.path.display()
            )?;
            if let Some(target) = &s.link_target {
                write!(out, " -> {}", target.display())?;
            }
            writeln!(out)?;
            if let Some(by) = &s.shadowed_by {
                writeln!(out, "    shadowed by {}", by.display())?;
            }
            for e in &s.errors {
                writeln!(out, "    error: {}", e.message)?;
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
                d.name,
                d.paths.len()
            )?;
            for p in &d.paths {
                let mark = if d.winner.as_ref() == Some(p) {
                    "wins "
                } else {
                    "     "
                };
                writeln!(out, "  {mark} {}", p.display())?;
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
