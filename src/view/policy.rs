//! The report of `skillpm policy check` (docs/policy.md#policy-check).

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use super::Report;
use crate::error::Exit;
use crate::escape::Untrusted;
use crate::policy::{PolicyLevel, RuleShown, Violation};

/// `policy check` JSON: `{"files": [{"level": "admin", "path": "…"}],
/// "rules": [{"rule": "sources.deny", "value": "…", "level": "admin",
/// "at": {"file": "…", "line": 3}}], "violations": [{"rule", "policy":
/// {"file", "line"}, "subject", "at": {"file", "line"}, "detail"}]}`.
/// Exit 3 when `violations` is not empty.
#[derive(Debug, Serialize)]
pub struct PolicyReport {
    pub files: Vec<PolicyFileShown>,
    pub rules: Vec<RuleShown>,
    pub violations: Vec<Violation>,
}

#[derive(Debug, Serialize)]
pub struct PolicyFileShown {
    pub level: PolicyLevel,
    pub path: PathBuf,
}

impl PolicyReport {
    pub fn exit(&self) -> Exit {
        if self.violations.is_empty() {
            Exit::Success
        } else {
            Exit::Integrity
        }
    }
}

/// The rules in force, one line each with where it comes from (shared
/// with `doctor`).
pub fn write_rules(out: &mut dyn Write, rules: &[RuleShown]) -> std::io::Result<()> {
    for r in rules {
        writeln!(
            out,
            "  {} = {}  ({}: {})",
            r.rule,
            r.value,
            r.level.as_str(),
            r.at
        )?;
    }
    Ok(())
}

impl Report for PolicyReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.files.is_empty() {
            writeln!(
                out,
                "no install policy: no policy file at any level (docs/policy.md)"
            )?;
            return Ok(());
        }
        writeln!(out, "Install policy from:")?;
        for f in &self.files {
            writeln!(out, "  {} {}", f.level.as_str(), f.path.display())?;
        }
        writeln!(out, "Rules:")?;
        write_rules(out, &self.rules)?;
        if self.violations.is_empty() {
            writeln!(out, "the project meets the policy")?;
        } else {
            writeln!(out, "{} violation(s):", self.violations.len())?;
            for v in &self.violations {
                writeln!(
                    out,
                    "  {}: {}: {} (rule `{}` at {})",
                    Untrusted(&v.at.to_string()),
                    Untrusted(&v.subject),
                    Untrusted(&v.detail),
                    v.rule,
                    Untrusted(&v.policy.to_string())
                )?;
            }
        }
        Ok(())
    }
}
