//! `agents/openai.yaml`: optional metadata Codex reads beside SKILL.md —
//! display `interface`, `dependencies.tools` (environment variables and MCP
//! servers the skill needs) and `policy.allow_implicit_invocation`.
//!
//! Read fail-open, as Codex does: the file is optional, so a missing file is
//! nothing, and a broken file or field becomes a warning, never an error
//! that would refuse a skill whose SKILL.md is fine.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use super::Diagnostic;
use super::frontmatter::{kind_of, must_be, parse_yaml_value};

/// Where the file lives, relative to the skill root.
pub const OPENAI_YAML: &str = "agents/openai.yaml";

/// Files larger than this are not metadata; ignored with a warning.
const MAX_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OpenAiMetadata {
    pub interface: Option<Interface>,
    pub dependencies: Vec<ToolDependency>,
    pub policy: Option<InvocationPolicy>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Interface {
    pub display_name: Option<String>,
    pub short_description: Option<String>,
    pub icon_small: Option<String>,
    pub icon_large: Option<String>,
    pub brand_color: Option<String>,
    pub default_prompt: Option<String>,
}

/// What kind of thing a skill depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// An environment variable that must be set (`value` is its name).
    EnvVar,
    /// An MCP server (`value` is its name; `transport`, `command`, `url` say how to reach it).
    Mcp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolDependency {
    #[serde(rename = "type")]
    pub kind: ToolKind,
    pub value: String,
    pub description: Option<String>,
    pub transport: Option<String>,
    pub command: Option<String>,
    pub url: Option<String>,
}

impl ToolDependency {
    /// For an `env_var` dependency: whether the variable is unset, asking
    /// `is_set` (the caller owns the environment; this reader never reads
    /// it). Always `false` for other kinds.
    pub fn is_missing_env_var(&self, is_set: impl Fn(&str) -> bool) -> bool {
        self.kind == ToolKind::EnvVar && !is_set(&self.value)
    }
}

/// A dependency's `value` must be a name of its own kind: an environment
/// variable name (`[A-Za-z_][A-Za-z0-9_]*`) or an MCP server name
/// (`[A-Za-z0-9_.-]+`), at most 128 characters. Anything else is not a name
/// a person can check, whatever it shows on a terminal.
fn name_syntax(kind: &ToolKind, value: &str) -> Result<(), &'static str> {
    let ok = value.len() <= 128
        && match kind {
            ToolKind::EnvVar => {
                value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && !value.as_bytes()[0].is_ascii_digit()
            }
            ToolKind::Mcp => value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')),
        };
    match (ok, kind) {
        (true, _) => Ok(()),
        (false, ToolKind::EnvVar) => {
            Err("an environment variable name ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)")
        }
        (false, ToolKind::Mcp) => {
            Err("an MCP server name ([A-Za-z0-9_.-]+, at most 128 characters)")
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct InvocationPolicy {
    /// `false`: the model must not pick this skill on its own.
    pub allow_implicit_invocation: Option<bool>,
    pub products: Vec<String>,
}

/// Reads `<skill_dir>/agents/openai.yaml`. `Ok(None)` when absent; every
/// problem is pushed onto `warnings` and the readable rest is kept.
pub fn read(skill_dir: &Path, warnings: &mut Vec<Diagnostic>) -> Option<OpenAiMetadata> {
    let file = skill_dir.join(OPENAI_YAML);
    parsed(read_text(&file), &file, warnings)
}

/// [`read`] from the file's bytes as a store entry was written from them
/// (`None`: the skill has no such file), not from disk.
pub fn from_written(
    skill_dir: &Path,
    bytes: Option<&[u8]>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<OpenAiMetadata> {
    let file = skill_dir.join(OPENAI_YAML);
    parsed(bytes.map(text_of).transpose(), &file, warnings)
}

fn parsed(
    text: Result<Option<String>, String>,
    file: &Path,
    warnings: &mut Vec<Diagnostic>,
) -> Option<OpenAiMetadata> {
    match text {
        Ok(text) => parse(&text?, file, warnings),
        Err(why) => {
            warnings.push(ignored(file, why));
            None
        }
    }
}

/// The file's text (`None` when absent), or why it is ignored.
fn read_text(file: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::symlink_metadata(file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot inspect it: {e}")),
    };
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > MAX_BYTES {
        return Err(too_large(meta.len()));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read it: {e}"))?;
    text_of(&bytes).map(Some)
}

/// The file's bytes as text, or why they are ignored.
fn text_of(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| "it is not UTF-8 text".into())
}

fn too_large(len: u64) -> String {
    format!("it is {len} bytes; metadata files are limited to {MAX_BYTES}")
}

/// Parses openai.yaml text; `file` only names the file in warnings.
pub fn parse(text: &str, file: &Path, warnings: &mut Vec<Diagnostic>) -> Option<OpenAiMetadata> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let root = match parse_yaml_value(text, 1) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(ignored(file, format!("it is not valid YAML: {e}")));
            return None;
        }
    };
    let root = match root {
        Value::Object(map) => map,
        Value::Null => return Some(OpenAiMetadata::default()),
        other => {
            warnings.push(ignored(
                file,
                format!("it must be a YAML mapping, found {}", kind_of(&other)),
            ));
            return None;
        }
    };
    let mut reader = Reader { file, warnings };
    Some(OpenAiMetadata {
        interface: reader
            .section(&root, "interface")
            .map(|m| reader.interface(m)),
        dependencies: reader
            .section(&root, "dependencies")
            .map(|m| reader.dependencies(m))
            .unwrap_or_default(),
        policy: reader.section(&root, "policy").map(|m| reader.policy(m)),
    })
}

fn ignored(file: &Path, why: String) -> Diagnostic {
    Diagnostic::new(file, None, format!("the file is ignored: {why}"))
}

struct Reader<'a> {
    file: &'a Path,
    warnings: &'a mut Vec<Diagnostic>,
}

impl Reader<'_> {
    fn warn(&mut self, field: &str, message: String) {
        self.warnings.push(Diagnostic::new(
            self.file,
            Some(field),
            format!("{message}; the field is ignored"),
        ));
    }

    /// Warns that `field` has the wrong type; the field reads as absent.
    fn wrong_type<T: Default>(&mut self, field: &str, what: &str, value: &Value) -> T {
        self.warn(field, must_be(field, what, value));
        T::default()
    }

    fn section<'m>(
        &mut self,
        map: &'m Map<String, Value>,
        key: &str,
    ) -> Option<&'m Map<String, Value>> {
        match map.get(key)? {
            Value::Object(m) => Some(m),
            Value::Null => None,
            other => self.wrong_type(key, "a mapping", other),
        }
    }

    fn string(&mut self, map: &Map<String, Value>, key: &str, path: &str) -> Option<String> {
        match map.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => self.wrong_type(&format!("{path}.{key}"), "a string", other),
        }
    }

    fn interface(&mut self, m: &Map<String, Value>) -> Interface {
        let p = "interface";
        Interface {
            display_name: self.string(m, "display_name", p),
            short_description: self.string(m, "short_description", p),
            icon_small: self.string(m, "icon_small", p),
            icon_large: self.string(m, "icon_large", p),
            brand_color: self.string(m, "brand_color", p),
            default_prompt: self.string(m, "default_prompt", p),
        }
    }

    fn dependencies(&mut self, m: &Map<String, Value>) -> Vec<ToolDependency> {
        let tools = match m.get("tools") {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items,
            Some(other) => return self.wrong_type("dependencies.tools", "a list", other),
        };
        let mut out = Vec::new();
        for (i, item) in tools.iter().enumerate() {
            let path = format!("dependencies.tools[{i}]");
            let Value::Object(tool) = item else {
                self.wrong_type::<()>(&path, "a mapping", item);
                continue;
            };
            let kind = match self.string(tool, "type", &path).as_deref() {
                Some("env_var") => ToolKind::EnvVar,
                Some("mcp") => ToolKind::Mcp,
                Some(other) => {
                    self.warn(
                        &format!("{path}.type"),
                        format!("`{path}.type` is `{other}`; skillpm knows `env_var` and `mcp`"),
                    );
                    continue;
                }
                None => {
                    self.warn(&format!("{path}.type"), format!("`{path}.type` is missing"));
                    continue;
                }
            };
            let Some(value) = self.string(tool, "value", &path).filter(|v| !v.is_empty()) else {
                self.warn(
                    &format!("{path}.value"),
                    format!("`{path}.value` is missing (the variable or server name)"),
                );
                continue;
            };
            if let Err(rule) = name_syntax(&kind, &value) {
                self.warn(
                    &format!("{path}.value"),
                    format!(
                        "`{path}.value` `{}` is not {rule}",
                        crate::escape::Untrusted(&value)
                    ),
                );
                continue;
            }
            out.push(ToolDependency {
                kind,
                value,
                description: self.string(tool, "description", &path),
                transport: self.string(tool, "transport", &path),
                command: self.string(tool, "command", &path),
                url: self.string(tool, "url", &path),
            });
        }
        out
    }

    fn policy(&mut self, m: &Map<String, Value>) -> InvocationPolicy {
        let allow = match m.get("allow_implicit_invocation") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => self.wrong_type(
                "policy.allow_implicit_invocation",
                "`true` or `false`",
                other,
            ),
        };
        let products = match m.get("products") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            Some(other) => self.wrong_type("policy.products", "a list", other),
        };
        InvocationPolicy {
            allow_implicit_invocation: allow,
            products,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> (Option<OpenAiMetadata>, Vec<String>) {
        let mut w = Vec::new();
        let m = parse(text, Path::new("s/agents/openai.yaml"), &mut w);
        (m, w.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn dependency_names_must_match_their_own_syntax() {
        let (m, w) = parse_ok(concat!(
            "dependencies:\n  tools:\n",
            "    - type: env_var\n      value: \"X\\e[6A\\e[J\"\n",
            "    - type: env_var\n      value: 9LIVES\n",
            "    - type: mcp\n      value: \"srv\\u202Etxt\"\n",
            "    - type: env_var\n      value: _OK_1\n",
            "    - type: mcp\n      value: pdf.server-2\n",
        ));
        let names: Vec<_> = m
            .unwrap()
            .dependencies
            .into_iter()
            .map(|d| d.value)
            .collect();
        assert_eq!(names, ["_OK_1", "pdf.server-2"]);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].contains("X\\u{1b}[6A\\u{1b}[J"), "{w:?}");
        assert!(
            w.iter()
                .all(|w| !w.contains('\x1b') && !w.contains('\u{202e}')),
            "{w:?}"
        );
    }

    #[test]
    fn reads_the_codex_shape() {
        let (m, w) = parse_ok(concat!(
            "interface:\n  display_name: PDF Tools\n  short_description: Fill forms\n",
            "dependencies:\n  tools:\n",
            "    - type: env_var\n      value: PDF_API_KEY\n      description: API key\n",
            "    - type: mcp\n      value: pdfserver\n      transport: streamable_http\n      url: https://mcp.example/pdf\n",
            "policy:\n  allow_implicit_invocation: false\n",
        ));
        assert!(w.is_empty(), "{w:?}");
        let m = m.unwrap();
        assert_eq!(
            m.interface.unwrap().display_name.as_deref(),
            Some("PDF Tools")
        );
        assert_eq!(m.dependencies.len(), 2);
        assert_eq!(m.dependencies[0].kind, ToolKind::EnvVar);
        assert_eq!(m.dependencies[0].value, "PDF_API_KEY");
        assert_eq!(m.dependencies[1].kind, ToolKind::Mcp);
        assert_eq!(
            m.dependencies[1].url.as_deref(),
            Some("https://mcp.example/pdf")
        );
        assert_eq!(m.policy.unwrap().allow_implicit_invocation, Some(false));
    }

    #[test]
    fn invalid_yaml_is_a_warning_not_an_error() {
        let (m, w) = parse_ok("interface: [unclosed\n");
        assert!(m.is_none());
        assert_eq!(w.len(), 1);
        assert!(
            w[0].starts_with("the file is ignored: it is not valid YAML: "),
            "{w:?}"
        );
    }

    #[test]
    fn bad_fields_are_dropped_with_a_warning_and_the_rest_kept() {
        let (m, w) = parse_ok(concat!(
            "dependencies:\n  tools:\n",
            "    - type: shell\n      value: x\n",
            "    - type: env_var\n",
            "    - type: env_var\n      value: TOKEN\n",
            "policy:\n  allow_implicit_invocation: nope\n",
        ));
        let m = m.unwrap();
        assert_eq!(m.dependencies.len(), 1);
        assert_eq!(m.dependencies[0].value, "TOKEN");
        assert_eq!(m.policy.unwrap().allow_implicit_invocation, None);
        assert_eq!(
            w,
            [
                "`dependencies.tools[0].type` is `shell`; skillpm knows `env_var` and `mcp`; the field is ignored",
                "`dependencies.tools[1].value` is missing (the variable or server name); the field is ignored",
                "`policy.allow_implicit_invocation` must be `true` or `false`, found a string; the field is ignored",
            ]
        );
    }

    #[test]
    fn missing_env_var_detection() {
        let dep = ToolDependency {
            kind: ToolKind::EnvVar,
            value: "SKILLPM_TEST_SURELY_UNSET_VARIABLE".into(),
            description: None,
            transport: None,
            command: None,
            url: None,
        };
        let is_set = |name: &str| name == "PATH";
        assert!(dep.is_missing_env_var(is_set));
        let path = ToolDependency {
            value: "PATH".into(),
            ..dep.clone()
        };
        assert!(!path.is_missing_env_var(is_set));
        let mcp = ToolDependency {
            kind: ToolKind::Mcp,
            ..dep
        };
        assert!(!mcp.is_missing_env_var(is_set));
    }
}
