//! The report of `skillpm agents`, as a table.

use std::io::Write;

use super::Report;
use crate::agents::roots::Scope;
use crate::placement::agents::AgentsReport;

impl Report for AgentsReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let id_w = self.agents.iter().map(|a| a.id.len()).max().unwrap_or(2);
        writeln!(
            out,
            "{:<id_w$}  DETECTED  GETS SKILLS  PROJECT FOLDER              USER FOLDER",
            "ID"
        )?;
        for a in &self.agents {
            let folder = |scope: Scope| {
                a.folders
                    .iter()
                    .find(|f| f.scope == scope && f.written)
                    .map(|f| {
                        if f.managed > 0 {
                            format!("{} ({} managed)", f.pattern, f.managed)
                        } else {
                            f.pattern.clone()
                        }
                    })
                    .unwrap_or_else(|| "-".to_owned())
            };
            writeln!(
                out,
                "{:<id_w$}  {:<8}  {:<11}  {:<26}  {}",
                a.id,
                if a.detected { "yes" } else { "-" },
                if a.chosen { "yes" } else { "-" },
                folder(Scope::Repo),
                folder(Scope::User),
            )?;
        }
        writeln!(
            out,
            "\nagents that get skills come from {}; choose with `--agent ID` on add/install or `[install] agents`",
            if self.chosen_from == "manifest" {
                "[install] agents in skills.toml"
            } else {
                "the default (.agents/skills plus detected agents)"
            }
        )
    }
}
