//! The report of `skillpm init`.

use std::io::Write;

use serde::Serialize;

use super::Report;

/// `--json`: `{"manifest": "<path of the new skills.toml>", "agents": [ids],
/// "link_mode": "auto"}`.
#[derive(Debug, Serialize)]
pub struct InitReport {
    pub manifest: std::path::PathBuf,
    /// `[install] agents` as written.
    pub agents: Vec<String>,
    pub link_mode: &'static str,
}

impl Report for InitReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Created {}", self.manifest.display())?;
        writeln!(
            out,
            "Skills go to: {} (link-mode = \"{}\"; change both under [install])",
            self.agents.join(", "),
            self.link_mode
        )?;
        writeln!(
            out,
            "Next: skillpm source add <name> <url>, then skillpm add <skill>"
        )
    }
}
