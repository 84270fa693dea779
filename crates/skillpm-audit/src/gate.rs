//! What the audit lets through on the way into a project (docs/audit.md):
//! the findings that stop a skill, the keys a person accepts, and the
//! refusal (exit 5) that names them.

use super::{Finding, Severity};
use crate::error::{Exit, OpError};

/// The findings that stop a skill: at or above `fail_on`, not in `accepted`.
pub fn blocking<'f>(
    findings: &'f [Finding],
    fail_on: Severity,
    accepted: &[String],
) -> Vec<&'f Finding> {
    findings
        .iter()
        .filter(|f| f.severity >= fail_on && !accepted.contains(&f.key()))
        .collect()
}

/// The keys a person accepts with the findings of `findings` at or above
/// `fail_on`.
pub fn keys_at_or_above(findings: &[Finding], fail_on: Severity) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f.severity >= fail_on)
        .map(Finding::key)
        .collect()
}

/// One line per finding: `  high remote-pipe-shell SKILL.md:12: curl … | sh`.
pub fn describe(findings: &[&Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("  {} {} {}: {}", f.severity, f.rule, f.place(), f.excerpt))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The refusal (exit 5) of the skills in `refused` (name, tree, findings);
/// `accept` says how to accept them (a flag of this command, or another
/// command).
pub fn refusal(
    refused: &[(String, String, Vec<&Finding>)],
    fail_on: Severity,
    accept: &str,
) -> OpError {
    let parts: Vec<String> = refused
        .iter()
        .map(|(name, tree, findings)| {
            format!(
                "`{name}` (tree {tree}): {} finding{} at or above `{fail_on}`:\n{}",
                findings.len(),
                if findings.len() == 1 { "" } else { "s" },
                describe(findings)
            )
        })
        .collect();
    OpError::new(
        Exit::Unsafe,
        format!(
            "audit refused {}\n  nothing was linked and skills.lock was not changed; read the files named above, and only if you trust them {accept}, or set `[audit] fail-on` in skills.toml (docs/audit.md)",
            parts.join("\n")
        ),
    )
}

/// How a command with `--accept-findings` says it in a refusal.
pub const ACCEPT_FLAG: &str =
    "run again with `--accept-findings` (recorded in skills.lock for this exact tree)";
