//! The report of `skillpm check`: each skill folder's verdict.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::error::Exit;
use crate::escape::{Untrusted, path_field};
use crate::skill::Diagnostic;

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

impl Report for CheckReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let width = self.skills.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &self.skills {
            let status = if s.valid { "ok" } else { "invalid" };
            writeln!(
                out,
                "{status:<8} {:<width$}  {}",
                Untrusted(&s.name),
                path_field(&s.path)
            )?;
            for e in &s.errors {
                writeln!(out, "  error: {}", Untrusted(&e.to_string()))?;
            }
            for w in &s.warnings {
                writeln!(out, "  warning: {}", Untrusted(&w.to_string()))?;
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
