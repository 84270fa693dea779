//! `skillpm show <name>`: load one skill by name as an agent's skill tool
//! does, and print what the model would receive.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::discover::discover_here;
use super::{Context, Report};
use crate::error::{Exit, OpError};
use crate::roots::{Agent, Scope};
use crate::skill::{self, ShellCommand, envelope};

#[derive(Debug, Clone)]
pub struct ShowOptions {
    pub name: String,
}

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

/// Errors: a name that is not a valid skill name (exit 2, nothing read);
/// no skill of that name (exit 8, listing the names available); only
/// invalid skills of that name (exit 5, naming the folder and the rule).
pub fn show(ctx: &Context, opts: &ShowOptions) -> anyhow::Result<ShowReport> {
    let name = opts.name.as_str();
    // Checked before discovery: a name is joined onto paths nowhere, but a
    // traversal attempt deserves a refusal, not a search.
    if !skill::is_valid_name(name) {
        return Err(OpError::new(
            Exit::Usage,
            format!(
                "{name:?} is not a skill name: names are 1-64 characters of a-z, 0-9 and single hyphens (no `/`, `.` or `..`)"
            ),
        )
        .into());
    }
    let discovery = discover_here(ctx)?;
    let Some(found) = discovery.winner(name) else {
        // An invalid skill may carry a wrong name; its folder name counts too.
        let named = |s: &&crate::roots::FoundSkill| {
            s.name == name || s.path.file_name().is_some_and(|f| f == name)
        };
        if let Some(bad) = discovery.skills.iter().find(named) {
            let why = bad
                .check
                .errors
                .first()
                .map(|e| e.message.clone())
                .unwrap_or_default();
            return Err(OpError::new(
                Exit::Unsafe,
                format!(
                    "skill `{name}` at {} is invalid and cannot be loaded: {why}; run `skillpm check {}` for every problem",
                    bad.path.display(),
                    bad.path.display()
                ),
            )
            .into());
        }
        let available = discovery.available_names();
        let listing = if available.is_empty() {
            "no skills are installed in any scope; `skillpm list --all` shows the folders scanned"
                .to_owned()
        } else {
            format!("available: {}", available.join(", "))
        };
        return Err(OpError::new(
            Exit::NotFound,
            format!("no skill named `{name}`; {listing}"),
        )
        .into());
    };
    let Some(md) = found.check.skill.as_ref() else {
        return Err(OpError::new(
            Exit::Other,
            format!("skill `{name}` has no readable SKILL.md"),
        )
        .into());
    };
    let files = envelope::sample_files(&found.path, envelope::MAX_LISTED_FILES);
    let shell_commands = md.shell_commands();
    if !shell_commands.is_empty() {
        ctx.ui.warn(format!(
            "`{name}` asks agents to run {} shell command(s) when it loads (shown unexpanded below, not run)",
            shell_commands.len()
        ));
    }
    Ok(ShowReport {
        name: md.name.clone(),
        description: md.description.clone(),
        scope: found.scope,
        agent: found.agent,
        path: found.path.clone(),
        base_url: envelope::base_url(&found.path),
        content: envelope::render(md, &found.path, &files),
        files,
        shell_commands,
    })
}

impl Report for ShowReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        out.write_all(self.content.as_bytes())
    }
}
