//! The human rendering of a doctor report.

use std::collections::BTreeMap;
use std::io::Write;

use super::Report;
use crate::doctor::*;
use crate::escape::Untrusted;

impl Report for DoctorReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        // Problems first; then what is healthy, counted (`-v` lists each
        // skill; `--json` has everything).
        writeln!(out, "project: {}", self.project.display())?;
        let over_budget: Vec<&str> = (self.findings.iter())
            .filter(|f| f.kind == OVER_BUDGET)
            .filter_map(|f| f.skill.as_deref())
            .collect();
        // At scale one line per skill would bury the report under the same
        // advice: the skills over the budget get one line, and any other
        // kind its first few findings and a count (`--json` has them all).
        const PER_KIND: usize = 5;
        let mut told: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &self.findings {
            let n = told.entry(f.kind).or_default();
            *n += 1;
            if f.kind == OVER_BUDGET && over_budget.len() > 1 {
                if *n == 1 {
                    self.write_over_budget(out, &over_budget)?;
                }
            } else if *n <= PER_KIND {
                // A message names folders and skills found on disk: one field.
                writeln!(
                    out,
                    "{:<7} {}: {}",
                    f.level.as_str(),
                    f.kind,
                    Untrusted(&f.message)
                )?;
            } else if *n == PER_KIND + 1 {
                let all = self.findings.iter().filter(|g| g.kind == f.kind).count();
                writeln!(
                    out,
                    "{:<7} {}: … and {} more like these (`--json` lists them)",
                    f.level.as_str(),
                    f.kind,
                    all - PER_KIND
                )?;
            }
        }
        self.write_roots(out)?;
        self.write_skills(out)?;
        writeln!(
            out,
            "\nlisting: {} of {} characters, {} skill(s) listed, {} left out",
            self.listing.used,
            self.listing.budget,
            self.listing.listed.len(),
            self.listing.omitted.len()
        )?;
        writeln!(
            out,
            "store: {} entr{} checked, {} corrupt",
            self.store.entries_checked,
            if self.store.entries_checked == 1 {
                "y"
            } else {
                "ies"
            },
            self.store.corrupt
        )?;
        if !self.install_policy.is_empty() {
            writeln!(out, "install policy (docs/policy.md):")?;
            super::policy::write_rules(out, &self.install_policy)?;
        }
        if !self.mcp_servers.is_empty() {
            let names: Vec<String> = self
                .mcp_servers
                .iter()
                .map(|s| format!("{} ({})", s.name, s.client))
                .collect();
            writeln!(out, "MCP servers configured: {}", names.join(", "))?;
        }
        writeln!(out)?;
        let count = |level| self.findings.iter().filter(|f| f.level == level).count();
        if self.needs_action {
            writeln!(
                out,
                "\n{} error(s), {} warning(s): action needed",
                count(Urgency::Error),
                count(Urgency::Warning)
            )
        } else {
            writeln!(out, "no problems found")
        }
    }
}

impl DoctorReport {
    /// The skills the listing has no room for, in one warning (`--json`
    /// keeps one finding per skill).
    fn write_over_budget(&self, out: &mut dyn Write, names: &[&str]) -> std::io::Result<()> {
        const SHOWN: usize = 8;
        let mut shown = names
            .iter()
            .take(SHOWN)
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if names.len() > SHOWN {
            shown.push_str(&format!(
                " and {} more (`--json` lists them)",
                names.len() - SHOWN
            ));
        }
        writeln!(
            out,
            "{:<7} {OVER_BUDGET}: {} skills do not fit in the {}-character skill listing `skillpm mcp` gives its skill tool, so a model it serves will not know to load them: {shown}; {BUDGET_ADVICE}",
            Urgency::Warning.as_str(),
            names.len(),
            self.listing.budget,
        )
    }

    /// Each root in precedence order, with how many skills it holds.
    fn write_roots(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "\nroots, highest precedence first:")?;
        for r in &self.roots {
            let n = r.root.skills;
            let state = match (r.root.exists, r.root.truncated) {
                (false, _) => "absent".to_owned(),
                (true, false) => format!("{n} skill{}", super::plural(n)),
                (true, true) => format!("{n} skill{}, scan cut short", super::plural(n)),
            };
            writeln!(
                out,
                "  {:>2}. {:<6} {:<8} {}  ({state})",
                r.rank,
                r.root.scope.as_str(),
                r.root.agent.as_str(),
                r.root.path.display()
            )?;
        }
        Ok(())
    }

    /// Each skill found, aligned by name, marking the ones skillpm manages
    /// (with `-v`); else how many there are in each state.
    fn write_skills(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if !self.verbose && !self.skills.is_empty() {
            let mut states: BTreeMap<&str, usize> = BTreeMap::new();
            for s in &self.skills {
                *states.entry(s.status).or_default() += 1;
            }
            let states: Vec<String> = states.iter().map(|(k, n)| format!("{n} {k}")).collect();
            let managed = self.skills.iter().filter(|s| s.managed).count();
            writeln!(
                out,
                "\nskills: {} found ({managed} managed by skillpm): {}; `skillpm doctor -v` lists each",
                self.skills.len(),
                states.join(", ")
            )?;
            return Ok(());
        }
        if !self.skills.is_empty() {
            let w = super::name_width(self.skills.iter().map(|s| s.name.as_str()));
            writeln!(out, "\nskills:")?;
            for s in &self.skills {
                writeln!(
                    out,
                    "  {:<w$}  {:<6} {:<8} {:<8} {}{}",
                    s.name,
                    s.scope.as_str(),
                    s.agent.as_str(),
                    s.status,
                    s.path.display(),
                    if s.managed { "  (skillpm)" } else { "" }
                )?;
            }
        }
        Ok(())
    }
}
