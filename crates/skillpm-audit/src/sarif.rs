//! SARIF 2.1.0 output (OASIS Static Analysis Results Interchange Format),
//! the format code-scanning tools load: one run, the rules of
//! [`super::rules::RULES`] and [`super::behaviour::BEHAVIOUR_RULES`] as the driver's rules, one result per finding
//! with a `file://` URI and a line.

use std::path::Path;

use serde_json::{Value, json};

use super::behaviour::BEHAVIOUR_RULES;
use super::rules;
use super::{Finding, Severity};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// One audited skill: its name, its folder and what was found there.
pub struct Audited<'a> {
    pub name: &'a str,
    pub dir: &'a Path,
    pub findings: &'a [Finding],
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

/// GitHub code scanning's numeric scale (0.1–10).
fn security_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.5",
        Severity::Low => "2.0",
    }
}

/// The file's URI: `file://` of its path when `dir` is absolute (callers
/// pass absolute folders), else the relative path.
fn uri(dir: &Path, file: &str) -> String {
    url::Url::from_file_path(dir.join(file))
        .map(String::from)
        .unwrap_or_else(|()| dir.join(file).to_string_lossy().replace('\\', "/"))
}

/// The SARIF log of `skills`, produced by skillpm `version`.
pub fn log(skills: &[Audited<'_>], version: &str) -> Value {
    // The static rules, then the behaviour rules of `audit --run`.
    let described = rules::all()
        .chain(BEHAVIOUR_RULES)
        .map(|r| (r.id, r.why, r.family, r.severity, r.example));
    let ids: Vec<&str> = described.clone().map(|r| r.0).collect();
    let rules: Vec<Value> = described
        .map(|(id, why, family, severity, example)| {
            json!({
                "id": id,
                "name": id,
                "shortDescription": { "text": why },
                "fullDescription": { "text": format!("{why} (family {}, severity {severity}). Example: {example}", family.as_str()) },
                "help": { "text": "See docs/audit.md in the skillpm sources for every rule and what the scanner cannot promise." },
                "defaultConfiguration": { "level": level(severity) },
                "properties": {
                    "tags": ["security", family.as_str()],
                    "security-severity": security_severity(severity),
                },
            })
        })
        .collect();
    let mut results = Vec::new();
    for skill in skills {
        for f in skill.findings {
            let index = ids.iter().position(|id| *id == f.rule);
            let mut location = json!({
                "artifactLocation": { "uri": uri(skill.dir, &f.file) },
            });
            if f.line > 0 {
                location["region"] = json!({ "startLine": f.line });
            }
            let mut result = json!({
                "ruleId": f.rule,
                "level": level(f.severity),
                "message": { "text": format!("{} ({}): {}: {}", f.rule, f.severity, f.why, f.excerpt) },
                "locations": [{ "physicalLocation": location }],
                "properties": {
                    "skill": skill.name,
                    "severity": f.severity,
                    "security-severity": security_severity(f.severity),
                },
            });
            if let Some(i) = index {
                result["ruleIndex"] = json!(i);
            }
            results.push(result);
        }
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "skillpm",
                    "version": version,
                    "rules": rules,
                }
            },
            "results": results,
        }],
    })
}
