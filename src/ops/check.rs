//! `skillpm check <path>...`: the strict check of skill folders, for authors
//! and CI. A path is a skill folder (it holds SKILL.md) or a folder of skill
//! folders (its immediate subfolders holding SKILL.md are checked).

use std::path::{Path, PathBuf};

use super::Context;
use crate::error::{Exit, OpError};
use crate::skill::{Diagnostic, SKILL_MD, check_skill_dir};
pub use crate::view::check::{CheckReport, CheckedSkill};

#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub paths: Vec<PathBuf>,
    /// `--strict`: fields only an agent defines are errors too, so the
    /// verdict is the reference validator's (`agentskills validate`).
    pub strict: bool,
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
