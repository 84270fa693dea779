//! The static scanner (docs/audit.md): reads every file of a skill folder
//! and reports what it would make an agent do — download-and-run, decoded
//! payloads, credential reads and their exfiltration, prompt injection and
//! hidden text, persistence and destruction, bundled executables and live
//! secrets, hooks and shell grants. It never runs anything and never uses
//! the network.
//!
//! The rules are data ([`rules::RULES`]): id, family, severity, why, and an
//! example, listed in docs/audit.md. Severity separates *doing* from
//! *teaching*: a command-like match in prose that explains a danger
//! ("never pipe curl into bash") is reported at `low`, never at the rule's
//! own severity (see [`rules`]).

pub mod behaviour;
pub mod gate;
pub mod rules;
pub mod sarif;
#[cfg(test)]
mod syntax_needs;
mod unicode;

use std::path::Path;

use serde::{Deserialize, Serialize};

/// How bad a finding is. Ordered: `Low < Medium < High < Critical`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    #[default]
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 4] = [
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    /// `low`, `medium`, `high` or `critical` (any case); else `None`.
    pub fn parse(text: &str) -> Option<Severity> {
        Severity::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule families of docs/audit.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    RemoteCode,
    Obfuscation,
    Credentials,
    PromptInjection,
    Persistence,
    Payload,
    AgentConfig,
}

impl Family {
    pub fn as_str(self) -> &'static str {
        match self {
            Family::RemoteCode => "remote-code",
            Family::Obfuscation => "obfuscation",
            Family::Credentials => "credentials",
            Family::PromptInjection => "prompt-injection",
            Family::Persistence => "persistence",
            Family::Payload => "payload",
            Family::AgentConfig => "agent-config",
        }
    }
}

/// One thing the scanner found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's id (`remote-pipe-shell`).
    pub rule: String,
    /// Usually the rule's; `low` when the text explains rather than does.
    pub severity: Severity,
    /// The file inside the skill folder, `/`-separated.
    pub file: String,
    /// 1-based; 0 for a finding about the file as a whole (a binary).
    pub line: usize,
    /// The matched text, shortened and made printable.
    pub excerpt: String,
    pub why: String,
}

impl Finding {
    /// How a finding is named in skills.lock's `accepted-findings` and on
    /// the command line: `rule@file:line`.
    pub fn key(&self) -> String {
        format!("{}@{}:{}", self.rule, self.file, self.line)
    }

    /// `file:line` as people read it.
    pub fn place(&self) -> String {
        if self.line == 0 {
            self.file.clone()
        } else {
            format!("{}:{}", self.file, self.line)
        }
    }
}

/// Files larger than this are checked for executable headers only: no
/// skill's instructions or scripts come close, and reading them whole would
/// make a large data file the slowest part of an install.
pub const MAX_TEXT_BYTES: usize = 2 * 1024 * 1024;

/// Audits the skill folder `dir`: every regular file below it, whatever
/// its name (symbolic links are not followed). What the store keeps and
/// links is exactly what is read: there is no list of names skipped, so a
/// `.hg/setup.sh` or `.skillpm-x` a SKILL.md tells the agent to run is read
/// like any other file (docs/audit.md#what-is-read). Findings are sorted by
/// file, then line, then rule.
pub fn audit_dir(dir: &Path) -> std::io::Result<Vec<Finding>> {
    let mut files = Vec::new();
    collect(dir, "", &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for rel in files {
        let bytes = std::fs::read(dir.join(&rel))?;
        out.extend(audit_file(&rel, &bytes));
    }
    sort(&mut out);
    Ok(out)
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if kind.is_dir() {
            collect(&entry.path(), &rel, out)?;
        } else if kind.is_file() {
            out.push(rel);
        }
    }
    Ok(())
}

/// The version of what the scanner finds. Bump it with every change to a
/// rule's expression or to how files are read (decoding, normalising,
/// frontmatter): a verdict remembered for a tree (`store::verdicts`) holds
/// only for the rule set that made it, so every tree is judged again.
/// Adding, removing or re-rating a rule changes [`ruleset`] by itself.
pub const RULESET_VERSION: u32 = 1;

/// The rule set a verdict is made by: [`RULESET_VERSION`], skillpm's own
/// version, and a digest of every rule's id, family and severity.
pub fn ruleset() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let mut table = String::new();
        for r in rules::RULES {
            table.push_str(&format!("{} {} {}\n", r.id, r.family.as_str(), r.severity));
        }
        let digest = crate::digest::Digest::of_bytes(table.as_bytes());
        format!(
            "{RULESET_VERSION}/{}/{}",
            env!("CARGO_PKG_VERSION"),
            &digest.hex()[..16]
        )
    })
}

/// Audits one file's bytes; `rel` is its `/`-separated path in the skill.
pub fn audit_file(rel: &str, bytes: &[u8]) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(f) = rules::binary_finding(rel, bytes) {
        out.push(f);
        return out;
    }
    if bytes.len() > MAX_TEXT_BYTES || bytes.contains(&0) {
        return out;
    }
    let text = String::from_utf8_lossy(bytes);
    rules::scan_text(rel, &text, &mut out);
    unicode::scan(rel, &text, &mut out);
    sort(&mut out);
    out
}

fn sort(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| {
        (&a.file, a.line, &a.rule, &a.excerpt).cmp(&(&b.file, b.line, &b.rule, &b.excerpt))
    });
    findings.dedup_by(|a, b| a.file == b.file && a.line == b.line && a.rule == b.rule);
}

/// The highest severity among `findings`.
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

/// `text` cut to about `max` characters on one line, control and
/// invisible characters shown as `\u{…}` so an excerpt never hides what
/// it quotes or moves the terminal's cursor.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.trim().chars().enumerate() {
        if n >= max {
            out.push('…');
            break;
        }
        if c.is_control() || unicode::is_invisible(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_order_and_parse() {
        assert!(Severity::Low < Severity::Medium && Severity::High < Severity::Critical);
        assert_eq!(Severity::parse("HIGH"), Some(Severity::High));
        assert_eq!(Severity::parse("severe"), None);
    }

    #[test]
    fn excerpt_shows_invisible_characters() {
        assert_eq!(
            excerpt("a\u{200B}b\u{1b}[2J", 40),
            "a\\u{200B}b\\u{001B}[2J"
        );
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
