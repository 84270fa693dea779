//! `skillpm check <path>...`: the strict check of skill folders, for authors
//! and CI. A path is a skill folder (it holds SKILL.md) or a folder of skill
//! folders (its immediate subfolders holding SKILL.md are checked).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Context, Report};
use crate::error::{Exit, OpError};
use crate::skill::{Diagnostic, SKILL_MD, check_skill_dir};

#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub paths: Vec<PathBuf>,
    /// `--strict`: fields only an agent defines are errors too, so the
    /// verdict is the reference validator's (`agentskills validate`).
    pub strict: bool,
}

/// The `check` report.
///
/// JSON shape (stable):
/// ```json
/// {"skills": [{"name": "pdf-tools", "path": "skills/pdf-tools", "valid": false,
///              "errors":   [{"file": "SKILL.md", "field": "name", "message": "…"}],
///              "warnings": [{"file": "agents/openai.yaml", "field": null, "message": "…"}]}],
///  "checked": 1, "invalid": 1}
/// ```
/// `path` is as given on the command line (joined with the subfolder for a
/// folder of skills); `file` is relative to `path`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub skills: Vec<CheckedSkill>,
    pub checked: usize,
    pub invalid: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckedSkill {
    /// The frontmatter name, or the folder name when it cannot be read.
    pub name: String,
    pub path: PathBuf,
    pub valid: bool,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl CheckReport {
    /// `Exit::Unsafe` (5) when any skill is invalid, else success.
    pub fn exit(&self) -> Exit {
        if self.invalid > 0 {
            Exit::Unsafe
        } else {
            Exit::Success
        }
    }
}

pub fn check(ctx: &Context, opts: &CheckOptions) -> anyhow::Result<CheckReport> {
    // Resolve every argument before checking anything, so a typo fails fast.
    let mut targets: Vec<PathBuf> = Vec::new();
    for given in &opts.paths {
        for target in skill_folders(&ctx.cwd, given)? {
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
    }
    let mut skills = Vec::new();
    for shown in targets {
        let dir = ctx.cwd.join(&shown);
        let result = check_skill_dir(&dir, None);
        let relative = |d: Diagnostic| d.relative_to(&dir);
        let (errors, warnings) = result.verdict(opts.strict);
        skills.push(CheckedSkill {
            name: result.display_name(),
            path: shown,
            valid: errors.is_empty(),
            errors: errors.into_iter().map(relative).collect(),
            warnings: warnings.into_iter().map(relative).collect(),
        });
    }
    let invalid = skills.iter().filter(|s| !s.valid).count();
    Ok(CheckReport {
        checked: skills.len(),
        invalid,
        skills,
    })
}

/// The skill folders named by one argument, as paths to show (relative
/// when the argument was). A folder with no SKILL.md and no skill
/// subfolders is returned itself, so its missing SKILL.md is reported.
fn skill_folders(cwd: &Path, given: &Path) -> Result<Vec<PathBuf>, OpError> {
    let abs = cwd.join(given);
    let meta = std::fs::metadata(&abs).map_err(|e| {
        OpError::new(
            Exit::Usage,
            format!(
                "cannot check {}: {e}; pass a skill folder or a folder of skill folders",
                given.display()
            ),
        )
    })?;
    if !meta.is_dir() {
        return Err(OpError::new(
            Exit::Usage,
            format!(
                "{} is not a folder; pass the folder that holds SKILL.md (or a folder of such folders)",
                given.display()
            ),
        ));
    }
    if abs.join(SKILL_MD).exists() || abs.join("skill.md").exists() {
        return Ok(vec![given.to_owned()]);
    }
    let entries = std::fs::read_dir(&abs)
        .map_err(|e| OpError::new(Exit::Other, format!("cannot list {}: {e}", given.display())))?;
    let mut children: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| e.path().join(SKILL_MD).is_file())
        .map(|e| given.join(e.file_name()))
        .collect();
    children.sort();
    if children.is_empty() {
        children.push(given.to_owned());
    }
    Ok(children)
}

impl Report for CheckReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let width = self.skills.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &self.skills {
            let status = if s.valid { "ok" } else { "invalid" };
            writeln!(out, "{status:<8} {:<width$}  {}", s.name, s.path.display())?;
            for e in &s.errors {
                writeln!(out, "  error: {e}")?;
            }
            for w in &s.warnings {
                writeln!(out, "  warning: {w}")?;
            }
        }
        let noun = if self.checked == 1 { "skill" } else { "skills" };
        writeln!(
            out,
            "{} {noun} checked: {} valid, {} invalid",
            self.checked,
            self.checked - self.invalid,
            self.invalid
        )
    }
}
