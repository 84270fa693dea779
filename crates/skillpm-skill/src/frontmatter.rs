//! Splitting SKILL.md into its YAML frontmatter and markdown body, and parsing
//! the YAML as YAML 1.2 says (colons, quotes, block scalars), so a value means
//! the same here as in every agent that reads the file.

use serde_json::{Map, Value};

/// SKILL.md text split at its `---` fences. Line numbers are 1-based and
/// count lines of the original file, so messages can point into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML between the fences (CRLF already turned into LF).
    pub yaml: String,
    /// Everything after the closing fence.
    pub body: String,
    /// Line of SKILL.md where `yaml` starts (the line after the opening fence).
    pub yaml_line: usize,
    /// Line of SKILL.md where `body` starts (the line after the closing fence).
    pub body_line: usize,
}

/// Why SKILL.md text has no usable frontmatter block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    #[error("SKILL.md must start with a `---` line that opens the YAML frontmatter")]
    NoOpeningFence,
    #[error("the frontmatter opened on line 1 is never closed by a `---` line")]
    NotClosed,
}

crate::classified!(SplitError);
impl crate::error::Classify for SplitError {
    /// A SKILL.md without frontmatter is invalid content (docs/design.md#skills).
    fn exit(&self) -> crate::error::Exit {
        match self {
            SplitError::NoOpeningFence | SplitError::NotClosed => crate::error::Exit::Unsafe,
        }
    }
}

/// Splits SKILL.md text. Tolerates a UTF-8 byte-order mark, CRLF line ends
/// and trailing spaces after a fence, as editors on every platform produce.
pub fn split(text: &str) -> Result<Split, SplitError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.replace("\r\n", "\n");
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().ok_or(SplitError::NoOpeningFence)?;
    if !is_fence(first) {
        return Err(SplitError::NoOpeningFence);
    }
    let mut offset = first.len();
    let yaml_start = offset;
    for (index, line) in lines.enumerate() {
        if is_fence(line) {
            let yaml = text[yaml_start..offset].to_owned();
            let body = text[offset + line.len()..].to_owned();
            // Line 1 is the opening fence; `index` counts lines after it from 0.
            let closing_line = index + 2;
            return Ok(Split {
                yaml,
                body,
                yaml_line: 2,
                body_line: closing_line + 1,
            });
        }
        offset += line.len();
    }
    Err(SplitError::NotClosed)
}

fn is_fence(line: &str) -> bool {
    line.trim_end_matches(['\n', ' ', '\t']) == "---"
}

/// Parses the frontmatter YAML into a mapping of field name to value.
/// `yaml_line` is where the YAML starts in SKILL.md, so a syntax error names
/// the line of the file, not of the fragment.
pub fn parse_yaml(yaml: &str, yaml_line: usize) -> Result<Map<String, Value>, String> {
    let value = parse_yaml_value(yaml, yaml_line)
        .map_err(|e| format!("frontmatter is not valid YAML: {e}"))?;
    match value {
        Value::Object(map) => Ok(map),
        Value::Null => {
            Err("the frontmatter is empty: it needs at least `name` and `description`".into())
        }
        other => Err(format!(
            "the frontmatter must be a YAML mapping of fields, found {}",
            kind_of(&other)
        )),
    }
}

/// Parses any YAML document into a JSON value with the options skillpm uses
/// everywhere: YAML 1.2 booleans (`yes` stays a string), duplicate keys are
/// an error, and the parser's default budget guards against alias bombs.
pub fn parse_yaml_value(yaml: &str, yaml_line: usize) -> Result<Value, String> {
    let seen = |parses: &Parses| {
        parses
            .by_text
            .get(yaml)
            .and_then(|at| at.iter().find(|(line, _)| *line == yaml_line))
            .map(|(_, parsed)| parsed.clone())
    };
    if let Some(parsed) = PARSES.lock().ok().and_then(|parses| seen(&parses)) {
        return parsed;
    }
    let parsed = parse_uncached(yaml, yaml_line);
    if let Ok(mut parses) = PARSES.lock()
        && parses.bytes + yaml.len() <= PARSES_BUDGET
    {
        parses.bytes += yaml.len();
        let at = parses.by_text.entry(yaml.to_owned()).or_default();
        at.push((yaml_line, parsed.clone()));
    }
    parsed
}

/// The documents this process parsed, with what each gave at the line it
/// starts on (the result is a function of both). One skill's SKILL.md is
/// parsed when its source is listed, by the unpacker's check, the check of
/// its stored copy, its parsed view and the audit: five parses of five
/// lines were 12.5 % of the instructions of a cold add of 50 skills
/// (docs/performance.md#what-the-measurements-decided).
#[derive(Default)]
struct Parses {
    /// Each text's parses, by the line it started on.
    by_text: std::collections::HashMap<String, Vec<(usize, Parsed)>>,
    bytes: usize,
}

/// What parsing a document gave: its value, or the error's message.
type Parsed = Result<Value, String>;

/// Documents are remembered while their texts total at most this: a run
/// over a huge collection keeps parsing, without growing.
const PARSES_BUDGET: usize = 4 << 20;

static PARSES: std::sync::LazyLock<std::sync::Mutex<Parses>> =
    std::sync::LazyLock::new(Default::default);

fn parse_uncached(yaml: &str, yaml_line: usize) -> Result<Value, String> {
    let options = serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
    };
    serde_saphyr::from_str_with_options::<Value>(yaml, options).map_err(|e| {
        e.render_with_options(serde_saphyr::render_options! {
            formatter: &serde_saphyr::UserMessageFormatter,
            snippets: serde_saphyr::SnippetMode::Off,
            line_offset: yaml_line.saturating_sub(1) as u64,
        })
    })
}

/// The message for a field of the wrong type: "`field` must be what, found a list".
pub fn must_be(field: &str, what: &str, value: &Value) -> String {
    format!("`{field}` must be {what}, found {}", kind_of(value))
}

/// "a string", "a number", … for messages about a value of the wrong type.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lf_crlf_and_bom_alike() {
        let lf = split("---\nname: a\n---\n# Body\n").unwrap();
        let crlf = split("\u{feff}---\r\nname: a\r\n---\r\n# Body\r\n").unwrap();
        assert_eq!(lf, crlf);
        assert_eq!(lf.yaml, "name: a\n");
        assert_eq!(lf.body, "# Body\n");
        assert_eq!(lf.body_line, 4);
    }

    #[test]
    fn closing_fence_at_end_of_file_and_trailing_spaces() {
        let s = split("--- \nname: a\n---").unwrap();
        assert_eq!(s.yaml, "name: a\n");
        assert_eq!(s.body, "");
    }

    #[test]
    fn a_dashes_line_inside_a_value_does_not_close() {
        // `----` and `--- x` are not fences.
        let s = split("---\na: |\n  ----\n  --- x\n---\nbody").unwrap();
        assert_eq!(s.yaml, "a: |\n  ----\n  --- x\n");
        assert_eq!(s.body, "body");
        assert_eq!(s.body_line, 6);
    }

    #[test]
    fn missing_fences_are_reported() {
        assert_eq!(split("# no frontmatter\n"), Err(SplitError::NoOpeningFence));
        assert_eq!(split(""), Err(SplitError::NoOpeningFence));
        assert_eq!(split("---\nname: a\n"), Err(SplitError::NotClosed));
        assert_eq!(
            SplitError::NotClosed.to_string(),
            "the frontmatter opened on line 1 is never closed by a `---` line"
        );
    }

    #[test]
    fn a_remembered_parse_is_the_parse_of_that_text_at_that_line() {
        let honest = "name: a\ndescription: b\n";
        let first = parse_yaml_value(honest, 2).unwrap();
        assert_eq!(parse_yaml_value(honest, 2), Ok(first.clone()));
        // One character apart, another document: never the remembered one.
        let other = parse_yaml_value("name: a\ndescription: c\n", 2).unwrap();
        assert_ne!(other, first);
        // The same broken text further down the file: its own line number.
        let broken = "name: a\ndescription: [\n";
        let at_2 = parse_yaml_value(broken, 2).unwrap_err();
        let at_40 = parse_yaml_value(broken, 40).unwrap_err();
        assert_ne!(at_2, at_40, "{at_2}");
        assert_eq!(parse_uncached(broken, 40), Err(at_40));
        assert_eq!(parse_yaml_value(honest, 2), Ok(first));
    }

    #[test]
    fn yaml_values_parse_as_yaml_defines_them() {
        let yaml = concat!(
            "name: pdf\n",
            "description: \"Use when: a PDF \\\"form\\\" arrives\"\n",
            "license: 'It''s MIT'\n",
            "compatibility: >\n  Needs python3\n  and poppler\n",
            "flag: yes\n",
            "keep: |\n  line one\n  line two\n",
        );
        let map = parse_yaml(yaml, 2).unwrap();
        assert_eq!(map["description"], "Use when: a PDF \"form\" arrives");
        assert_eq!(map["license"], "It's MIT");
        assert_eq!(map["compatibility"], "Needs python3 and poppler\n");
        // YAML 1.2: `yes` is a string, not a boolean.
        assert_eq!(map["flag"], "yes");
        assert_eq!(map["keep"], "line one\nline two\n");
    }

    #[test]
    fn yaml_errors_name_the_line_of_skill_md() {
        let err = parse_yaml("name: a\ndescription: [unclosed\n", 2).unwrap_err();
        assert!(err.starts_with("frontmatter is not valid YAML: "), "{err}");
        assert_eq!(
            err,
            "frontmatter is not valid YAML: unclosed bracket '[' at line 3, column 14"
        );
    }

    #[test]
    fn duplicate_keys_are_an_error() {
        let err = parse_yaml("name: a\nname: b\n", 2).unwrap_err();
        assert_eq!(
            err,
            "frontmatter is not valid YAML: duplicate mapping key `name` is not allowed here at line 3, column 1"
        );
    }

    #[test]
    fn non_mapping_and_empty_frontmatter() {
        assert_eq!(
            parse_yaml("- a\n- b\n", 2).unwrap_err(),
            "the frontmatter must be a YAML mapping of fields, found a list"
        );
        assert_eq!(
            parse_yaml("", 2).unwrap_err(),
            "the frontmatter is empty: it needs at least `name` and `description`"
        );
    }
}
