//! The report of `skillpm install`: what changed in the agent folders.

use std::io::Write;

use serde::Serialize;

use super::{Report, plural};
use crate::placement::LinkChanges;
use crate::shown::Untrusted;
use crate::view::approval::Summary;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InstallMode {
    /// Resolve what the lock lacks and write it.
    #[default]
    Normal,
    /// Never write the lock; fail (exit 6) if it would change.
    Locked,
    /// `Locked` plus no network.
    Frozen,
}

/// `--json`: `{"mode", "skills", "fetched", "lock_written", "summaries": [...],
/// "links": {"linked", "copied", "unlinked"}, "disabled": [names]}`.
#[derive(Debug, Serialize)]
pub struct InstallReport {
    pub mode: InstallMode,
    /// Skills in the lock.
    pub skills: usize,
    /// Skills whose content had to be fetched into the store.
    pub fetched: usize,
    pub lock_written: bool,
    pub summaries: Vec<Summary>,
    pub links: LinkChanges,
    pub disabled: Vec<String>,
}

impl Report for InstallReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for c in &self.links.changes {
            let short = |d: Option<crate::digest::Digest>| {
                d.map_or_else(|| "-".to_owned(), |d| d.hex()[..12].to_owned())
            };
            writeln!(
                out,
                "  {:7} {}  {} -> {}  {}",
                c.action,
                Untrusted(&c.name),
                short(c.old),
                short(c.new),
                c.path.display()
            )?;
        }
        // Re-placed with the same tree (a drifted copy, a new link kind).
        for p in &self.links.linked {
            if !self.links.changes.iter().any(|c| &c.path == p) {
                writeln!(out, "  linked  {}", p.display())?;
            }
        }
        let installed = self.skills - self.disabled.len();
        let changed = self.links.linked.len() + self.links.unlinked.len();
        let written = if self.lock_written {
            "; skills.lock written"
        } else {
            ""
        };
        writeln!(
            out,
            "{installed} skill{} installed ({} fetched, {changed} link{} changed){written}",
            plural(installed),
            self.fetched,
            plural(changed),
        )
    }
}
