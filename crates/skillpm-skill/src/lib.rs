//! The skill model: SKILL.md frontmatter and body, validation per docs/design.md#skills,
//! and the optional `agents/openai.yaml` metadata.
//!
//! Two ways in:
//! - [`check_skill_dir`]: the strict check of a whole folder — every rule
//!   violation is an error, unknown fields are warnings. `check`, the store
//!   and publish use it; a skill with errors is refused.
//! - [`parse_skill_md`]: the lenient reading an agent does — enough to know
//!   the name, description and body. Discovery uses the check's verdict to
//!   report a bad skill and skip it, never to stop.

// The modules of the layers below, under the names the code uses
// (docs/architecture.md).
use skillpm_base::{classified, error, escape, fs, names};

pub mod discover;
pub mod envelope;
pub mod frontmatter;
pub mod gh;
pub mod openai_yaml;
pub mod shell;
pub mod validate;

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

pub use openai_yaml::{OpenAiMetadata, ToolKind};
pub use shell::ShellCommand;

/// The file every skill folder holds at its root.
pub const SKILL_MD: &str = "SKILL.md";

/// SKILL.md files larger than this are refused (docs/design.md#unpacking's per-file limit);
/// no real instructions file comes close, and discovery must stay cheap.
pub const MAX_SKILL_MD_BYTES: u64 = 16 * 1024 * 1024;

/// One problem found in a skill: which file, which field, which rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// The frontmatter field (dotted for nested ones: `metadata.version`),
    /// or `None` for a problem with the file as a whole.
    pub field: Option<String>,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &Path, field: Option<&str>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_owned(),
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }

    /// The same diagnostic with `file` relative to the skill folder `dir`
    /// (`SKILL.md`, `agents/openai.yaml`), for reports that show `dir` once.
    pub fn relative_to(self, dir: &Path) -> Diagnostic {
        match self.file.strip_prefix(dir) {
            Ok(rel) => Diagnostic {
                file: rel.to_owned(),
                ..self
            },
            Err(_) => self,
        }
    }
}

impl std::fmt::Display for Diagnostic {
    /// `path/SKILL.md: message` — the message already names the field.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

/// A parsed SKILL.md: the two required fields, every frontmatter field as
/// parsed, and the body. Typed accessors read the optional fields leniently
/// (a value of the wrong type reads as absent; `check` reports it).
#[derive(Debug, Clone, Serialize)]
pub struct SkillMd {
    pub name: String,
    pub description: String,
    /// Every frontmatter field as parsed, in file order.
    pub frontmatter: serde_json::Map<String, Value>,
    pub body: String,
    /// 1-based line of SKILL.md where the body starts.
    pub body_line: usize,
}

impl SkillMd {
    /// Any frontmatter field, as parsed.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.frontmatter.get(name)
    }

    /// `allowed-tools` as a list. The string form is split on spaces and
    /// commas outside parentheses, so `Bash(git add:*) Read` is two tools.
    pub fn allowed_tools(&self) -> Vec<String> {
        match self.field("allowed-tools") {
            Some(Value::String(s)) => split_tools(s),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// `disable-model-invocation: true`: only a person may invoke the skill.
    pub fn disable_model_invocation(&self) -> bool {
        self.field("disable-model-invocation")
            .and_then(Value::as_bool)
            == Some(true)
    }

    /// `user-invocable` (default `true`): whether a person can invoke it by name.
    pub fn user_invocable(&self) -> bool {
        self.field("user-invocable").and_then(Value::as_bool) != Some(false)
    }

    /// `hooks`: lifecycle hooks the skill installs while active (Claude Code).
    pub fn hooks(&self) -> Option<&serde_json::Map<String, Value>> {
        self.field("hooks").and_then(Value::as_object)
    }

    /// Commands an agent runs on the user's machine when loading the skill
    /// (`` !`cmd` `` and ```` ```! ```` blocks); the approval summary flags them.
    pub fn shell_commands(&self) -> Vec<ShellCommand> {
        shell::find(&self.body, self.body_line)
    }
}

fn split_tools(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The outcome of checking one skill folder.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SkillCheck {
    pub dir: PathBuf,
    /// The parsed SKILL.md, when it has a frontmatter with string `name`
    /// and `description` (even if other rules fail).
    pub skill: Option<SkillMd>,
    /// Every rule broken at the strict level (what `check` reports).
    pub errors: Vec<Diagnostic>,
    /// The subset of `errors` that makes the skill unloadable (no SKILL.md,
    /// unparseable frontmatter, no usable name or description): refused
    /// even when installing leniently.
    #[serde(skip)]
    pub fatal: Vec<Diagnostic>,
    /// Fields an agent documents beyond the specification: warnings, and
    /// errors at the strict tier (`check --strict`).
    pub agent_fields: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    /// `agents/openai.yaml`, when present and readable.
    pub openai: Option<OpenAiMetadata>,
}

impl SkillCheck {
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Nothing stops an agent from loading it (see [`Level::Lenient`]).
    pub fn is_loadable(&self) -> bool {
        self.fatal.is_empty()
    }

    /// Records a problem that stops loading (fatal at every level).
    fn fail(&mut self, d: Diagnostic) {
        self.fatal.push(d.clone());
        self.errors.push(d);
    }

    /// What refuses this skill at `level`: every error when strict, only the
    /// fatal ones when lenient.
    pub fn refusals(&self, level: Level) -> &[Diagnostic] {
        match level {
            Level::Strict => &self.errors,
            Level::Lenient => &self.fatal,
        }
    }

    /// What a lenient install keeps as warnings: the errors that do not stop
    /// loading, the agent fields, then the plain warnings.
    pub fn lenient_warnings(&self) -> Vec<&Diagnostic> {
        self.errors
            .iter()
            .filter(|e| !self.fatal.contains(e))
            .chain(&self.agent_fields)
            .chain(&self.warnings)
            .collect()
    }

    /// The verdict of `check` at one tier: (errors, warnings). The default
    /// tier warns about agent fields; `strict` (the reference validator's
    /// verdict) refuses them.
    pub fn verdict(&self, strict: bool) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let mut errors = self.errors.clone();
        let mut warnings = Vec::new();
        if strict {
            errors.extend(self.agent_fields.iter().cloned());
        } else {
            warnings.extend(self.agent_fields.iter().cloned());
        }
        warnings.extend(self.warnings.iter().cloned());
        (errors, warnings)
    }

    /// The frontmatter name if it could be read, else the folder's name.
    /// Control characters are escaped: a name is printed in tables.
    pub fn display_name(&self) -> String {
        match &self.skill {
            Some(s) => printable(&s.name),
            None => folder_name_of(&self.dir)
                .map(|n| printable(&n))
                .unwrap_or_else(|| self.dir.display().to_string()),
        }
    }
}

/// How strictly a skill is judged (one rule set, two levels; see
/// [`validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// Installing: refuse only what is unsafe or cannot be loaded.
    #[default]
    Lenient,
    /// `check`, `publish`, `--strict`: every specification rule.
    Strict,
}

/// The folder's own name; for a path ending in `..` (or `.` at the root)
/// the name of the folder it resolves to.
fn folder_name_of(dir: &Path) -> Option<String> {
    let name = match dir.file_name() {
        Some(n) => n.to_owned(),
        None => std::fs::canonicalize(dir).ok()?.file_name()?.to_owned(),
    };
    Some(name.to_string_lossy().into_owned())
}

pub use crate::escape::printable;

/// Checks the skill folder `dir`. `expected_name` is the name the skill must
/// carry (the index entry's name when the folder is a store entry named by
/// digest): a mismatch with it is fatal. `None` means the folder's own name,
/// which a skill should carry (an error for `check`, a warning when loading).
pub fn check_skill_dir(dir: &Path, expected_name: Option<&str>) -> SkillCheck {
    check_skill_copy(dir, dir, expected_name, None)
}

/// [`check_skill_dir`] of `dir`, a copy of the skill folder `original`
/// (a store entry made from it): `original`'s name is the folder name a
/// skill without an `expected_name` is checked against; every file read is
/// the copy's, so what is judged is what was stored. `written`: the copy's
/// files as this process wrote them (`(path, bytes)`, sorted by path), read
/// instead of the copy: the bytes its digest names, with no read back
/// (docs/performance.md#what-the-measurements-decided).
pub fn check_skill_copy(
    dir: &Path,
    original: &Path,
    expected_name: Option<&str>,
    written: Option<&[(String, Vec<u8>)]>,
) -> SkillCheck {
    let file = dir.join(SKILL_MD);
    let mut check = SkillCheck {
        dir: dir.to_owned(),
        ..SkillCheck::default()
    };
    let folder_name = expected_name
        .map(str::to_owned)
        .or_else(|| folder_name_of(original));
    let find = |path: &str| {
        let files = written?;
        (files.binary_search_by(|(p, _)| p.as_str().cmp(path)).ok())
            .map(|at| files[at].1.as_slice())
    };
    let text = match (written, find(SKILL_MD)) {
        (None, _) => read_skill_md(dir),
        (Some(_), Some(bytes)) => skill_md_text(bytes.to_vec()),
        (Some(_), None) => Err(missing_skill_md(find("skill.md").is_some())),
    };
    match text {
        Ok(text) => check_text(
            &text,
            &file,
            folder_name.as_deref(),
            expected_name.is_some(),
            &mut check,
        ),
        Err(message) => check.fail(Diagnostic::new(&file, None, message)),
    }
    check.openai = match written {
        None => openai_yaml::read(dir, &mut check.warnings),
        Some(_) => {
            openai_yaml::from_written(dir, find(openai_yaml::OPENAI_YAML), &mut check.warnings)
        }
    };
    check
}

fn check_text(
    text: &str,
    file: &Path,
    folder_name: Option<&str>,
    name_is_binding: bool,
    check: &mut SkillCheck,
) {
    let (map, split) = match parse_frontmatter(text) {
        Ok(parsed) => parsed,
        Err(message) => {
            check.fail(Diagnostic::new(file, None, message));
            return;
        }
    };
    let mut findings = validate::validate(&map, file, folder_name);
    if name_is_binding {
        // A name the caller requires (an index entry's, the lock's) that the
        // content does not carry is not a folder quirk: refuse it.
        let mismatch: Vec<Diagnostic> = findings
            .errors
            .iter()
            .filter(|d| d.field.as_deref() == Some("name") && !findings.fatal.contains(d))
            .cloned()
            .collect();
        findings.fatal.extend(mismatch);
    }
    check.errors.extend(findings.errors);
    check.fatal.extend(findings.fatal);
    check.agent_fields.extend(findings.agent_fields);
    check.warnings.extend(findings.warnings);
    check.skill = skill_from_parts(map, split.body, split.body_line).ok();
}

/// Reads `<dir>/SKILL.md` as UTF-8 text, bounded; the error is a message
/// for a [`Diagnostic`] on that file.
fn read_skill_md(dir: &Path) -> Result<String, String> {
    let file = dir.join(SKILL_MD);
    let handle = match std::fs::File::open(&file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(missing_skill_md(dir.join("skill.md").is_file()));
        }
        Err(e) => return Err(format!("cannot read SKILL.md: {e}")),
    };
    let mut bytes = Vec::with_capacity(8192); // no read per doubling (`take` gives no size hint)
    handle
        .take(MAX_SKILL_MD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read SKILL.md: {e}"))?;
    skill_md_text(bytes)
}

/// Why a skill folder has no SKILL.md: `lower`, it has a `skill.md`.
fn missing_skill_md(lower: bool) -> String {
    if lower {
        "found `skill.md`, but the file must be named `SKILL.md` (upper case) for agents to load it"
            .into()
    } else {
        "the file is missing: every skill folder must hold a SKILL.md at its root".into()
    }
}

/// SKILL.md's bytes as its text, or why they are not one.
fn skill_md_text(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() as u64 > MAX_SKILL_MD_BYTES {
        return Err(format!(
            "SKILL.md is larger than {MAX_SKILL_MD_BYTES} bytes; move reference material into separate files"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "SKILL.md is not valid UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Parses SKILL.md text leniently: `---` frontmatter (YAML), then the
/// markdown body. Needs string `name` and `description`; every other rule is
/// left to [`check_skill_dir`].
pub fn parse_skill_md(text: &str) -> Result<SkillMd, String> {
    let (map, split) = parse_frontmatter(text)?;
    skill_from_parts(map, split.body, split.body_line)
}

/// The frontmatter fields and the split text, or why there are none.
fn parse_frontmatter(
    text: &str,
) -> Result<(serde_json::Map<String, Value>, frontmatter::Split), String> {
    let split = frontmatter::split(text).map_err(|e| e.to_string())?;
    let map = frontmatter::parse_yaml(&split.yaml, split.yaml_line)?;
    Ok((map, split))
}

fn skill_from_parts(
    map: serde_json::Map<String, Value>,
    body: String,
    body_line: usize,
) -> Result<SkillMd, String> {
    let field = |k: &str| match map.get(k) {
        Some(v) => validate::as_text(v).ok_or_else(|| frontmatter::must_be(k, "a string", v)),
        None => Err(format!("required field `{k}` is missing")),
    };
    Ok(SkillMd {
        name: field("name")?,
        description: field("description")?,
        frontmatter: map,
        body,
        body_line,
    })
}

/// The docs/design.md#skills name rule, kept with every other naming rule in
/// [`crate::names`].
pub use crate::names::is_valid_skill_name as is_valid_name;

/// Why `name` was refused, in the one wording every command uses: the
/// name (escaped: it came from someone else) and the rule.
pub fn not_a_skill_name(name: &str) -> String {
    format!(
        "`{}` is not a skill name: 1-64 characters of a-z, 0-9 and single inner hyphens",
        printable(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_skill(root: &Path, folder: &str, text: &str) -> PathBuf {
        let dir = root.join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(SKILL_MD), text).unwrap();
        dir
    }

    #[test]
    fn is_valid_name_agrees_with_the_rule_messages() {
        for name in ["pdf", "Pdf", "a--b", "-a", "a_b", "é", "", &"y".repeat(65)] {
            assert_eq!(
                is_valid_name(name),
                validate::name_rule_violations(name).is_empty(),
                "{name:?}"
            );
        }
    }

    #[test]
    fn check_reports_a_missing_skill_md() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("empty");
        std::fs::create_dir(&dir).unwrap();
        let check = check_skill_dir(&dir, None);
        assert!(!check.is_valid());
        assert_eq!(
            check.errors,
            [Diagnostic::new(
                &dir.join("SKILL.md"),
                None,
                "the file is missing: every skill folder must hold a SKILL.md at its root"
            )]
        );
    }

    #[test]
    fn check_reports_frontmatter_problems_with_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(tmp.path(), "x", "# Title only\n");
        let check = check_skill_dir(&dir, None);
        assert_eq!(check.errors.len(), 1);
        assert_eq!(check.errors[0].file, dir.join("SKILL.md"));
        assert_eq!(
            check.errors[0].message,
            "SKILL.md must start with a `---` line that opens the YAML frontmatter"
        );
    }

    #[test]
    fn check_reports_invalid_utf8() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bin");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), b"---\nname: bin\xff\n---\n").unwrap();
        let check = check_skill_dir(&dir, None);
        assert_eq!(
            check.errors[0].message,
            "SKILL.md is not valid UTF-8 (first bad byte at offset 13)"
        );
    }

    #[test]
    fn expected_name_overrides_the_folder_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(
            tmp.path(),
            "sha256-abc",
            "---\nname: pdf\ndescription: d\n---\n",
        );
        assert!(check_skill_dir(&dir, Some("pdf")).is_valid());
        assert!(!check_skill_dir(&dir, None).is_valid());
    }

    #[test]
    fn a_valid_skill_keeps_its_parsed_fields_and_metadata() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(
            tmp.path(),
            "pdf",
            "\u{feff}---\r\nname: pdf\r\ndescription: \"Fill forms: fast\"\r\nallowed-tools: Bash(git add:*) Read, Write\r\n---\r\n# PDF\r\n",
        );
        std::fs::create_dir(dir.join("agents")).unwrap();
        std::fs::write(
            dir.join("agents/openai.yaml"),
            "dependencies:\n  tools:\n    - type: env_var\n      value: PDF_KEY\n",
        )
        .unwrap();
        let check = check_skill_dir(&dir, None);
        assert!(check.is_valid(), "{:?}", check.errors);
        let skill = check.skill.as_ref().unwrap();
        assert_eq!(skill.description, "Fill forms: fast");
        assert_eq!(skill.allowed_tools(), ["Bash(git add:*)", "Read", "Write"]);
        assert_eq!(skill.body, "# PDF\n");
        assert_eq!(
            check.openai.as_ref().unwrap().dependencies[0].value,
            "PDF_KEY"
        );
    }

    #[test]
    fn broken_openai_yaml_is_a_warning_only() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(tmp.path(), "pdf", "---\nname: pdf\ndescription: d\n---\n");
        std::fs::create_dir(dir.join("agents")).unwrap();
        std::fs::write(dir.join("agents/openai.yaml"), "policy: [\n").unwrap();
        let check = check_skill_dir(&dir, None);
        assert!(check.is_valid());
        assert!(check.openai.is_none());
        assert_eq!(check.warnings.len(), 1);
        assert_eq!(check.warnings[0].file, dir.join("agents/openai.yaml"));
    }

    #[test]
    fn lowercase_skill_md_gets_a_precise_message() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pdf");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(
            dir.join("skill.md"),
            "---\nname: pdf\ndescription: d\n---\n",
        )
        .unwrap();
        // On a case-insensitive file system SKILL.md opens the same file.
        if std::fs::File::open(dir.join("SKILL.md")).is_err() {
            let check = check_skill_dir(&dir, None);
            assert_eq!(
                check.errors[0].message,
                "found `skill.md`, but the file must be named `SKILL.md` (upper case) for agents to load it"
            );
        }
    }

    #[test]
    fn names_are_printable_and_dotdot_folders_have_a_name() {
        assert_eq!(printable("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\\n");
        assert_eq!(printable("pdf"), "pdf");
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_skill(tmp.path(), "pdf", "---\nname: other\ndescription: d\n---\n");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let check = check_skill_dir(&dir.join("sub/.."), None);
        assert_eq!(
            check.errors[0].message,
            "`name` `other` does not match its folder name `pdf`; a skill's name must equal its folder's"
        );
    }

    #[test]
    fn accessors_read_agent_fields() {
        let skill = parse_skill_md(concat!(
            "---\nname: deploy\ndescription: d\ndisable-model-invocation: true\n",
            "user-invocable: false\nhooks:\n  PreToolUse:\n    - matcher: Bash\n",
            "metadata:\n  version: 1.0\n  owner: ops\n  nested: [x]\nlicense: MIT\n",
            "allowed-tools:\n  - Read\n  - \" Bash(ls) \"\n---\nRun !`whoami` first.\n",
        ))
        .unwrap();
        assert!(skill.disable_model_invocation());
        assert!(!skill.user_invocable());
        assert!(skill.hooks().unwrap().contains_key("PreToolUse"));
        assert_eq!(skill.allowed_tools(), ["Read", "Bash(ls)"]);
        let cmds = skill.shell_commands();
        assert_eq!(cmds.len(), 1);
        assert_eq!(cmds[0].command, "whoami");
        assert_eq!(cmds[0].line, 18);
    }

    #[test]
    fn defaults_of_agent_fields() {
        let skill = parse_skill_md("---\nname: a\ndescription: d\n---\n").unwrap();
        assert!(!skill.disable_model_invocation());
        assert!(skill.user_invocable());
        assert!(skill.hooks().is_none());
        assert!(skill.allowed_tools().is_empty());
    }

    #[test]
    fn parse_needs_name_and_description_as_text() {
        assert_eq!(
            parse_skill_md("---\ndescription: d\n---\n").unwrap_err(),
            "required field `name` is missing"
        );
        assert_eq!(
            parse_skill_md("---\nname: a\ndescription: [x]\n---\n").unwrap_err(),
            "`description` must be a string, found a list"
        );
        // A bare scalar is its text, as the reference validator reads it.
        let md = parse_skill_md("---\nname: a\ndescription: 3\n---\n").unwrap();
        assert_eq!(md.description, "3");
    }
}
