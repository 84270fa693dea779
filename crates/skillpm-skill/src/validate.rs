//! The frontmatter rules of docs/design.md#skills and the Agent Skills specification.
//! Each violated rule yields one message that names the field and the rule,
//! so an author can fix it without opening the spec.
//!
//! One rule set, in tiers (the client guidance: be lenient when loading,
//! strict when authoring; docs/design.md#skills):
//! - *fatal*: the skill cannot be loaded or safely placed — no usable
//!   `name` (missing, empty, or not a portable folder name) or
//!   `description`. Refused everywhere.
//! - *error*: the skill breaks the specification but an agent can still
//!   load it (name differs from its folder, a field too long, a field no
//!   specification and no agent defines). `check`, `publish` and
//!   `--strict` installs refuse it; a lenient install keeps it with a
//!   warning.
//! - *agent field*: a field an agent in the agents table documents
//!   ([`AGENT_FIELDS`]): a warning naming the field and the agent; an
//!   error only for `check --strict` / `publish --strict`.
//! - *warning*: advice only, never refused.
//!
//! Errors plus agent fields match the reference validator (`agentskills
//! validate` from `skills-ref`), so `check --strict` and it exit 0 on the
//! same skills, with two deliberate differences the specification backs:
//! names are ASCII `a-z0-9-` (the reference accepts Unicode letters), and
//! the file must be named `SKILL.md` exactly (the reference also reads
//! `skill.md`).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Diagnostic;
use super::frontmatter::{kind_of, must_be};

pub const MAX_NAME_CHARS: usize = crate::names::MAX_SKILL_NAME_CHARS;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// Fields the Agent Skills specification defines.
pub const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Fields agents read beyond the specification, each with the agent that
/// documents it, named as the agents table's `display` (the table's `doc`
/// link for that agent is the source: code.claude.com/docs/en/skills for
/// Claude Code, docs.github.com's agent skills page for GitHub Copilot).
/// `background` and `disallowed-tools` are not in Claude Code's docs yet,
/// but its skill loader reads both (release 2.1.332, the one CI runs:
/// docs/design.md#skills). A test keeps every agent named here a row of
/// the table.
pub const AGENT_FIELDS: &[(&str, &str)] = &[
    ("disable-model-invocation", "Claude Code"),
    ("user-invocable", "Claude Code"),
    ("hooks", "Claude Code"),
    ("argument-hint", "Claude Code"),
    ("arguments", "Claude Code"),
    ("when_to_use", "Claude Code"),
    ("model", "Claude Code"),
    ("effort", "Claude Code"),
    ("context", "Claude Code"),
    ("agent", "Claude Code"),
    ("paths", "Claude Code"),
    ("shell", "Claude Code"),
    ("version", "Claude Code"),
    ("background", "Claude Code"),
    ("disallowed-tools", "Claude Code"),
    ("excludeAgent", "GitHub Copilot"),
];

/// The agent that documents frontmatter field `key`, if one does.
pub fn agent_of_field(key: &str) -> Option<&'static str> {
    AGENT_FIELDS
        .iter()
        .find(|(field, _)| *field == key)
        .map(|(_, agent)| *agent)
}

/// Errors and warnings found in one frontmatter mapping.
#[derive(Debug, Default)]
pub struct Findings {
    /// The file every finding is about.
    file: PathBuf,
    /// Every rule broken at the strict level (`check`), fatal ones included.
    pub errors: Vec<Diagnostic>,
    /// The subset of `errors` that makes the skill unloadable: refused even
    /// by a lenient install.
    pub fatal: Vec<Diagnostic>,
    /// Fields an agent documents and the specification does not: warnings,
    /// errors only at the strict tier.
    pub agent_fields: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl Findings {
    fn error(&mut self, field: &str, message: String) {
        let d = Diagnostic::new(&self.file, Some(field), message);
        self.errors.push(d);
    }
    fn fatal(&mut self, field: &str, message: String) {
        let d = Diagnostic::new(&self.file, Some(field), message);
        self.fatal.push(d.clone());
        self.errors.push(d);
    }
    fn warning(&mut self, field: &str, message: String) {
        let d = Diagnostic::new(&self.file, Some(field), message);
        self.warnings.push(d);
    }
}

/// Applies every rule to `map`, the frontmatter of `file`. `folder_name` is
/// the name the skill must carry (`None`: not checked).
pub fn validate(map: &Map<String, Value>, file: &Path, folder_name: Option<&str>) -> Findings {
    let mut f = Findings {
        file: file.to_owned(),
        ..Findings::default()
    };
    validate_name(map.get("name"), folder_name, &mut f);
    validate_description(map.get("description"), &mut f);
    if let Some(v) = map.get("license")
        && as_text(v).is_none()
    {
        f.warning(
            "license",
            format!("`license` should be a string, found {}", kind_of(v)),
        );
    }
    if let Some(v) = map.get("compatibility") {
        validate_compatibility(v, &mut f);
    }
    if let Some(v) = map.get("metadata") {
        validate_metadata(v, &mut f);
    }
    if let Some(v) = map.get("allowed-tools") {
        validate_allowed_tools(v, &mut f);
    }
    for field in ["disable-model-invocation", "user-invocable"] {
        if let Some(v) = map.get(field)
            && !v.is_boolean()
        {
            f.warning(field, must_be(field, "`true` or `false`", v));
        }
    }
    if let Some(v) = map.get("hooks")
        && !v.is_object()
    {
        f.warning(
            "hooks",
            must_be("hooks", "a mapping of hook events to handlers", v),
        );
    }
    for key in map.keys() {
        if SPEC_FIELDS.contains(&key.as_str()) {
            continue;
        }
        if let Some(agent) = agent_of_field(key) {
            let d = Diagnostic::new(
                &f.file,
                Some(key),
                format!(
                    "`{key}` is read by {agent} only; other agents ignore it (the Agent Skills specification defines {}; `check --strict` refuses it)",
                    SPEC_FIELDS.join(", ")
                ),
            );
            f.agent_fields.push(d);
            continue;
        }
        f.error(
            key,
            format!(
                "unknown field `{key}`: neither the specification ({}) nor any agent in skillpm's agents table defines it, so agents will ignore it",
                SPEC_FIELDS.join(", ")
            ),
        );
    }
    f
}

fn validate_name(value: Option<&Value>, folder: Option<&str>, f: &mut Findings) {
    let Some(value) = value else {
        f.fatal("name", "required field `name` is missing".into());
        return;
    };
    let Some(name) = expect_text(value, "name", f) else {
        return;
    };
    let shown = super::printable(&name);
    for message in name_rule_violations(&name) {
        f.fatal("name", message);
    }
    if let Some(folder) = folder
        && folder != name
    {
        f.error(
            "name",
            format!(
                "`name` `{shown}` does not match its folder name `{}`; a skill's name must equal its folder's",
                super::printable(folder)
            ),
        );
    }
}

/// Every way `name` breaks the rule `^[a-z0-9]+(-[a-z0-9]+)*$`, 1–64 chars,
/// one message per broken part so the author sees all of them at once.
pub fn name_rule_violations(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    if name.is_empty() {
        out.push("`name` must not be empty".into());
        return out;
    }
    // Rules look at the raw name; messages show it with controls escaped.
    let shown = super::printable(name);
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        out.push(format!(
            "`name` is {chars} characters long; the limit is {MAX_NAME_CHARS}"
        ));
    }
    if name.chars().any(char::is_uppercase) {
        out.push(format!("`name` `{shown}` must be lowercase"));
    }
    let mut bad: Vec<char> = Vec::new();
    for c in name.chars() {
        let allowed = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c.is_uppercase();
        if !allowed && !bad.contains(&c) {
            bad.push(c);
        }
    }
    if !bad.is_empty() {
        let listed: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
        out.push(format!(
            "`name` `{shown}` contains {}; only a-z, 0-9 and `-` are allowed",
            listed.join(", ")
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push(format!(
            "`name` `{shown}` must not start or end with a hyphen"
        ));
    }
    if name.contains("--") {
        out.push(format!(
            "`name` `{shown}` must not contain consecutive hyphens"
        ));
    }
    out
}

fn validate_description(value: Option<&Value>, f: &mut Findings) {
    let Some(value) = value else {
        f.fatal(
            "description",
            "required field `description` is missing".into(),
        );
        return;
    };
    let Some(text) = expect_text(value, "description", f) else {
        return;
    };
    if text.trim().is_empty() {
        f.fatal("description", "`description` must not be empty".into());
        return;
    }
    let chars = text.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        f.error(
            "description",
            format!(
                "`description` is {chars} characters long; the limit is {MAX_DESCRIPTION_CHARS}"
            ),
        );
    }
}

fn validate_compatibility(value: &Value, f: &mut Findings) {
    let Some(text) = as_text(value) else {
        f.error("compatibility", must_be("compatibility", "a string", value));
        return;
    };
    if text.trim().is_empty() {
        // The reference validator accepts it; advice only, so they agree.
        f.warning(
            "compatibility",
            "`compatibility` must not be empty when present; remove it or say what the skill needs"
                .into(),
        );
        return;
    }
    let chars = text.chars().count();
    if chars > MAX_COMPATIBILITY_CHARS {
        f.error(
            "compatibility",
            format!(
                "`compatibility` is {chars} characters long; the limit is {MAX_COMPATIBILITY_CHARS}"
            ),
        );
    }
}

/// `metadata` is a string-to-string map. A nested list or mapping is an
/// error; a bare number or boolean is only a warning, because the reference
/// validator reads every scalar as text and real skills write `version: 1.0`.
fn validate_metadata(value: &Value, f: &mut Findings) {
    let Value::Object(map) = value else {
        f.warning(
            "metadata",
            must_be("metadata", "a mapping of strings to strings", value),
        );
        return;
    };
    for (key, v) in map {
        let field = format!("metadata.{key}");
        match v {
            Value::String(_) => {}
            Value::Array(_) | Value::Object(_) => f.warning(
                &field,
                format!("`{field}` should be a string, found {}", kind_of(v)),
            ),
            Value::Null => f.warning(
                &field,
                format!("`{field}` has no value; metadata values are strings"),
            ),
            Value::Bool(_) | Value::Number(_) => f.warning(
                &field,
                format!(
                    "`{field}` is {}; metadata values are strings, so quote it: {key}: \"{v}\"",
                    kind_of(v)
                ),
            ),
        }
    }
}

fn validate_allowed_tools(value: &Value, f: &mut Findings) {
    match value {
        Value::String(_) => {}
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    f.warning(
                        "allowed-tools",
                        must_be(&format!("allowed-tools[{i}]"), "a string", item),
                    );
                }
            }
        }
        other => f.warning(
            "allowed-tools",
            must_be(
                "allowed-tools",
                "a space-separated string or a list of strings",
                other,
            ),
        ),
    }
}

/// A scalar as the text YAML wrote (`42`, `true`); the reference validator
/// reads every scalar as text, so a numeric name is still a name.
pub fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A required field as text; anything else is fatal.
fn expect_text(value: &Value, field: &str, f: &mut Findings) -> Option<String> {
    let text = as_text(value);
    if text.is_none() {
        f.fatal(field, must_be(field, "a string", value));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "pdf-tools/SKILL.md";

    fn run(yaml: &str, folder: Option<&str>) -> Findings {
        let map = super::super::frontmatter::parse_yaml(yaml, 2).unwrap();
        validate(&map, Path::new(FILE), folder)
    }

    fn errors(yaml: &str) -> Vec<(Option<String>, String)> {
        run(yaml, Some("pdf-tools"))
            .errors
            .into_iter()
            .map(|d| (d.field, d.message))
            .collect()
    }

    fn one_error(yaml: &str) -> (String, String) {
        let errs = errors(yaml);
        assert_eq!(errs.len(), 1, "expected one error, got {errs:?}");
        let (field, message) = errs.into_iter().next().unwrap();
        (field.unwrap_or_default(), message)
    }

    /// `yaml` has exactly one error, of `field`, saying `message`.
    fn assert_one_error(yaml: &str, field: &str, message: &str) {
        assert_eq!(one_error(yaml), (field.to_owned(), message.to_owned()));
    }

    /// The messages of the errors of `yaml` in a folder named `folder`.
    fn error_messages(yaml: &str, folder: Option<&str>) -> Vec<String> {
        run(yaml, folder)
            .errors
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// The messages of the errors of a skill named `name` in a folder of
    /// that name.
    fn name_errors(name: &str) -> Vec<String> {
        error_messages(&format!("name: {name}\ndescription: d\n"), Some(name))
    }

    fn warnings(yaml: &str) -> Vec<String> {
        run(yaml, Some("pdf-tools"))
            .warnings
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_minimal_skill_is_valid() {
        let f = run(
            "name: pdf-tools\ndescription: Fill PDF forms.\n",
            Some("pdf-tools"),
        );
        assert!(f.errors.is_empty() && f.warnings.is_empty(), "{f:?}");
    }

    #[test]
    fn every_optional_field_when_well_formed_is_valid() {
        let f = run(
            concat!(
                "name: pdf-tools\ndescription: Fill PDF forms.\nlicense: MIT\n",
                "compatibility: Needs poppler\nmetadata:\n  author: acme\n  version: \"1.0\"\n",
                "allowed-tools: Bash(git:*) Read\n",
            ),
            Some("pdf-tools"),
        );
        assert!(f.errors.is_empty() && f.warnings.is_empty(), "{f:?}");
    }

    #[test]
    fn agent_fields_are_their_own_tier_naming_the_agent_and_never_fatal() {
        // The reference validator refuses every field outside the spec;
        // fields an agent documents are kept apart: warnings by default,
        // errors only under `--strict`.
        let f = run(
            concat!(
                "name: pdf-tools\ndescription: d\ndisable-model-invocation: true\n",
                "user-invocable: false\nhooks:\n  PreToolUse: []\nargument-hint: \"[file]\"\n",
            ),
            Some("pdf-tools"),
        );
        let fields: Vec<_> = (f.agent_fields.iter())
            .filter_map(|d| d.field.as_deref())
            .collect();
        assert_eq!(
            fields,
            [
                "disable-model-invocation",
                "user-invocable",
                "hooks",
                "argument-hint"
            ]
        );
        assert!(
            f.agent_fields[0]
                .message
                .contains("read by Claude Code only"),
            "{f:?}"
        );
        assert!(f.errors.is_empty() && f.fatal.is_empty(), "{f:?}");
    }

    #[test]
    fn only_an_unusable_name_or_description_is_fatal() {
        for (yaml, fatal) in [
            ("description: d\n", true),
            ("name: pdf-tools\n", true),
            ("name: PDF\ndescription: d\n", true),
            ("name: pdf-tools\ndescription: \"\"\n", true),
            ("name: pdf-kit\ndescription: d\n", false),
            (
                &*format!("name: pdf-tools\ndescription: {}\n", "x".repeat(1068)),
                false,
            ),
            ("name: pdf-tools\ndescription: d\nauthor: me\n", false),
        ] {
            let f = run(yaml, Some("pdf-tools"));
            assert!(!f.errors.is_empty(), "{yaml}");
            assert_eq!(!f.fatal.is_empty(), fatal, "{yaml}: {f:?}");
        }
    }

    #[test]
    fn name_missing() {
        assert_one_error(
            "description: d\n",
            "name",
            "required field `name` is missing",
        );
    }

    #[test]
    fn name_not_a_string() {
        // A bare scalar is its text (the reference validator agrees).
        assert!(
            run("name: 42\ndescription: d\n", Some("42"))
                .errors
                .is_empty()
        );
        let f = run("name: [a]\ndescription: d\n", Some("pdf-tools"));
        let msgs: Vec<_> = f.fatal.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs, ["`name` must be a string, found a list"]);
    }

    #[test]
    fn name_empty() {
        let errs = errors("name: \"\"\ndescription: d\n");
        assert_eq!(errs[0].1, "`name` must not be empty");
    }

    #[test]
    fn name_too_long() {
        let long = "a".repeat(65);
        assert_eq!(
            name_errors(&long),
            ["`name` is 65 characters long; the limit is 64"]
        );
        let ok = "a".repeat(64);
        assert!(name_errors(&ok).is_empty());
    }

    #[test]
    fn name_uppercase() {
        assert_eq!(
            name_errors("PDF-Tools"),
            ["`name` `PDF-Tools` must be lowercase"]
        );
    }

    #[test]
    fn name_bad_characters() {
        assert_eq!(
            name_errors("pdf_tools.v2"),
            ["`name` `pdf_tools.v2` contains '_', '.'; only a-z, 0-9 and `-` are allowed"]
        );
    }

    #[test]
    fn name_non_ascii_letters_are_refused() {
        // docs/design.md#skills follows the spec's ASCII pattern, not the reference
        // validator's Unicode letters.
        assert_eq!(
            name_errors("café"),
            ["`name` `café` contains 'é'; only a-z, 0-9 and `-` are allowed"]
        );
    }

    #[test]
    fn name_control_characters_are_escaped_in_messages() {
        assert_eq!(
            error_messages("name: \"a\\e[31mb\"\ndescription: d\n", None),
            ["`name` `a\\u{1b}[31mb` contains '\\u{1b}', '['; only a-z, 0-9 and `-` are allowed"]
        );
    }

    #[test]
    fn name_hyphen_at_an_end() {
        assert_eq!(
            name_errors("-pdf"),
            ["`name` `-pdf` must not start or end with a hyphen"]
        );
    }

    #[test]
    fn name_consecutive_hyphens() {
        assert_eq!(
            name_errors("pdf--tools"),
            ["`name` `pdf--tools` must not contain consecutive hyphens"]
        );
    }

    #[test]
    fn name_must_match_the_folder() {
        assert_one_error(
            "name: pdf-kit\ndescription: d\n",
            "name",
            "`name` `pdf-kit` does not match its folder name `pdf-tools`; a skill's name must equal its folder's",
        );
    }

    #[test]
    fn description_missing() {
        assert_one_error(
            "name: pdf-tools\n",
            "description",
            "required field `description` is missing",
        );
    }

    #[test]
    fn description_not_a_string() {
        assert_one_error(
            "name: pdf-tools\ndescription: [a, b]\n",
            "description",
            "`description` must be a string, found a list",
        );
    }

    #[test]
    fn description_empty_or_blank() {
        for yaml in [
            "name: pdf-tools\ndescription: \"\"\n",
            "name: pdf-tools\ndescription: \"   \"\n",
        ] {
            assert_one_error(yaml, "description", "`description` must not be empty");
        }
    }

    #[test]
    fn description_length_limit_counts_characters() {
        let at_limit = "é".repeat(1024);
        assert!(errors(&format!("name: pdf-tools\ndescription: {at_limit}\n")).is_empty());
        let over = "x".repeat(1025);
        assert_one_error(
            &format!("name: pdf-tools\ndescription: {over}\n"),
            "description",
            "`description` is 1025 characters long; the limit is 1024",
        );
    }

    #[test]
    fn license_of_another_type_is_a_warning() {
        let yaml = "name: pdf-tools\ndescription: d\nlicense:\n  a: b\n";
        assert!(errors(yaml).is_empty());
        assert_eq!(
            warnings(yaml),
            ["`license` should be a string, found a mapping"]
        );
    }

    #[test]
    fn compatibility_rules() {
        let over = "c".repeat(501);
        assert_one_error(
            &format!("name: pdf-tools\ndescription: d\ncompatibility: {over}\n"),
            "compatibility",
            "`compatibility` is 501 characters long; the limit is 500",
        );
        let empty = "name: pdf-tools\ndescription: d\ncompatibility: \"\"\n";
        assert!(errors(empty).is_empty());
        assert_eq!(
            warnings(empty),
            [
                "`compatibility` must not be empty when present; remove it or say what the skill needs"
            ]
        );
        assert!(errors("name: pdf-tools\ndescription: d\ncompatibility: true\n").is_empty());
        assert_one_error(
            "name: pdf-tools\ndescription: d\ncompatibility:\n  a: b\n",
            "compatibility",
            "`compatibility` must be a string, found a mapping",
        );
    }

    #[test]
    fn metadata_shapes_are_warnings() {
        let yaml = "name: pdf-tools\ndescription: d\nmetadata: [a]\n";
        assert!(errors(yaml).is_empty());
        assert_eq!(
            warnings(yaml),
            ["`metadata` must be a mapping of strings to strings, found a list"]
        );
        let nested = "name: pdf-tools\ndescription: d\nmetadata:\n  owners: [a, b]\n";
        assert!(errors(nested).is_empty());
        assert_eq!(
            warnings(nested),
            ["`metadata.owners` should be a string, found a list"]
        );
    }

    #[test]
    fn metadata_bare_scalars_are_warnings() {
        let yaml = "name: pdf-tools\ndescription: d\nmetadata:\n  version: 1.5\n  beta: true\n";
        assert!(errors(yaml).is_empty());
        assert_eq!(
            warnings(yaml),
            [
                "`metadata.version` is a number; metadata values are strings, so quote it: version: \"1.5\"",
                "`metadata.beta` is a boolean; metadata values are strings, so quote it: beta: \"true\"",
            ]
        );
    }

    #[test]
    fn allowed_tools_shapes_are_warnings() {
        assert!(
            run(
                "name: pdf-tools\ndescription: d\nallowed-tools: [Read, Bash(git:*)]\n",
                Some("pdf-tools")
            )
            .warnings
            .is_empty()
        );
        assert_eq!(
            warnings("name: pdf-tools\ndescription: d\nallowed-tools: [Read, {a: b}]\n"),
            ["`allowed-tools[1]` must be a string, found a mapping"]
        );
        assert!(
            errors("name: pdf-tools\ndescription: d\nallowed-tools: [Read, {a: b}]\n").is_empty()
        );
    }

    #[test]
    fn unknown_fields_are_errors_like_the_reference_validator() {
        let (field, message) = one_error("name: pdf-tools\ndescription: d\nauthor: me\n");
        assert_eq!(field, "author");
        assert!(message.starts_with("unknown field `author`"), "{message}");
    }

    #[test]
    fn diagnostics_name_the_file() {
        let f = run("description: d\n", None);
        assert_eq!(f.errors[0].file, Path::new(FILE));
    }
}
