//! The report of `skillpm mentions`: the skills a message names.

use std::io::Write;

use serde::Serialize;

use super::Report;
use crate::catalog::mentions::{IgnoredMention, Mention};
use crate::escape::{Untrusted, path_field};

/// The `mentions` report.
///
/// JSON shape (stable):
/// ```json
/// {"mentions": [{"name": "pdf", "path": "/work/app/.agents/skills/pdf", "scope": "repo",
///                "how": "name", "offset": 4}],
///  "skipped": [{"token": "$demo", "offset": 20, "reason": "2 different skills are named …"}]}
/// ```
/// `how` is `link` for `[$name](path)` and `name` for `$name`; `offset` is
/// the byte offset of the first mention. `skipped` lists mentions of known
/// skills or links that selected nothing, with the reason.
#[derive(Debug, Clone, Serialize)]
pub struct MentionsReport {
    pub mentions: Vec<Mention>,
    pub skipped: Vec<IgnoredMention>,
}

impl Report for MentionsReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.mentions.is_empty() {
            writeln!(out, "no skills mentioned")?;
        }
        let width = self
            .mentions
            .iter()
            .map(|m| m.name.len())
            .max()
            .unwrap_or(0);
        for m in &self.mentions {
            writeln!(
                out,
                "{:<width$}  {:<6}  {}",
                Untrusted(&m.name),
                m.scope.as_str(),
                path_field(&m.path)
            )?;
        }
        for s in &self.skipped {
            writeln!(
                out,
                "skipped {}: {}",
                Untrusted(&s.token),
                Untrusted(&s.reason)
            )?;
        }
        Ok(())
    }
}
