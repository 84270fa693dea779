//! The report of `skillpm remove`, `approve`, `disable` and `enable`.

use std::io::Write;

use serde::Serialize;

use super::Report;
use crate::placement::LinkChanges;
use crate::view::approval::Summary;

/// `--json`: `{"action": "remove"|"approve"|"disable"|"enable", "skills": [names
/// changed], "unchanged": [names already so], "summaries": [...], "links": {...},
/// "held_back": [names of other skills the audit gate left unlinked]}`.
#[derive(Debug, Serialize)]
pub struct ManageReport {
    pub action: &'static str,
    pub skills: Vec<String>,
    pub unchanged: Vec<String>,
    pub summaries: Vec<Summary>,
    pub links: LinkChanges,
    /// Other skills the audit gate holds back, left unlinked (warned about).
    pub held_back: Vec<String>,
}

impl Report for ManageReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let past = match self.action {
            "remove" => "removed",
            "approve" => "approved",
            "disable" => "disabled",
            _ => "enabled",
        };
        for s in &self.skills {
            writeln!(out, "{s} {past}")?;
        }
        for s in &self.unchanged {
            writeln!(out, "{s} was already {past}")?;
        }
        for p in &self.links.unlinked {
            writeln!(out, "  unlinked {}", p.display())?;
        }
        for p in &self.links.linked {
            writeln!(out, "  linked {}", p.display())?;
        }
        Ok(())
    }
}
