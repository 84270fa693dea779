//! The report of `skillpm show`: the envelope an agent's skill tool returns.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::agents::roots::{Agent, Scope};
use crate::skill::ShellCommand;

/// The `show` report. Human output is the envelope itself.
///
/// JSON shape (stable):
/// ```json
/// {"name": "pdf", "description": "…", "scope": "repo", "agent": "claude",
///  "path": "/work/app/.claude/skills/pdf", "base_url": "file:///work/app/.claude/skills/pdf",
///  "files": ["/work/app/.claude/skills/pdf/scripts/fill.py"],
///  "shell_commands": [{"line": 12, "command": "git status", "block": false}],
///  "content": "<skill_content name=\"pdf\">…</skill_content>\n"}
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct ShowReport {
    pub name: String,
    pub description: String,
    pub scope: Scope,
    pub agent: Agent,
    pub path: PathBuf,
    pub base_url: String,
    pub files: Vec<PathBuf>,
    /// Commands an agent would run while loading it; shown, never run.
    pub shell_commands: Vec<ShellCommand>,
    /// The envelope an agent's skill tool returns.
    pub content: String,
}

impl Report for ShowReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        out.write_all(self.content.as_bytes())
    }
}
