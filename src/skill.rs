//! The skill model: SKILL.md frontmatter and body, and validation per
//! DESIGN §10. (Foundation skeleton: the foundation issue completes this.)

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Classify, Exit};

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl Classify for SkillError {
    fn exit(&self) -> Exit {
        match self {
            SkillError::Io { .. } => Exit::Other,
            SkillError::Invalid { .. } => Exit::Unsafe,
        }
    }
}

/// One problem found in a skill: which file, which field, which rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: PathBuf,
    pub field: Option<String>,
    pub message: String,
}

/// A parsed SKILL.md.
#[derive(Debug, Clone, Serialize)]
pub struct SkillMd {
    pub name: String,
    pub description: String,
    /// Every frontmatter field as parsed, for fields this model does not name.
    pub frontmatter: serde_json::Map<String, serde_json::Value>,
    pub body: String,
}

/// The outcome of checking one skill folder.
#[derive(Debug, Clone, Serialize)]
pub struct SkillCheck {
    pub dir: PathBuf,
    pub skill: Option<SkillMd>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl SkillCheck {
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Checks the skill folder `dir`. `expected_name` is the name the skill must
/// carry (its folder name, or the index entry's name when the folder is a
/// store entry named by digest); `None` means the folder's own name.
pub fn check_skill_dir(dir: &Path, expected_name: Option<&str>) -> SkillCheck {
    let file = dir.join("SKILL.md");
    let mut check = SkillCheck {
        dir: dir.to_owned(),
        skill: None,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            check.errors.push(Diagnostic {
                file,
                field: None,
                message: format!("cannot read SKILL.md: {e}"),
            });
            return check;
        }
    };
    match parse_skill_md(&text) {
        Ok(skill) => {
            let expected = expected_name
                .map(str::to_owned)
                .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()));
            if let Some(expected) = expected
                && expected != skill.name
            {
                check.errors.push(Diagnostic {
                    file: file.clone(),
                    field: Some("name".into()),
                    message: format!(
                        "name `{}` must equal its folder name `{expected}`",
                        skill.name
                    ),
                });
            }
            check.skill = Some(skill);
        }
        Err(message) => check.errors.push(Diagnostic {
            file,
            field: None,
            message,
        }),
    }
    check
}

/// Parses SKILL.md text: `---` frontmatter (YAML), then the markdown body.
pub fn parse_skill_md(text: &str) -> Result<SkillMd, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.replace("\r\n", "\n");
    let rest = text
        .strip_prefix("---\n")
        .ok_or("SKILL.md must start with a `---` frontmatter block")?;
    let end = rest
        .find("\n---\n")
        .or_else(|| rest.strip_suffix("\n---").map(|r| r.len()))
        .ok_or("the frontmatter block is not closed by a `---` line")?;
    let yaml = &rest[..end];
    let body = rest.get(end + 5..).unwrap_or("").to_owned();
    let value: serde_json::Value =
        serde_saphyr::from_str(yaml).map_err(|e| format!("frontmatter is not valid YAML: {e}"))?;
    let serde_json::Value::Object(map) = value else {
        return Err("frontmatter must be a YAML mapping".into());
    };
    let field = |k: &str| map.get(k).and_then(|v| v.as_str()).map(str::to_owned);
    let name = field("name").ok_or("frontmatter field `name` is required")?;
    let description = field("description").ok_or("frontmatter field `description` is required")?;
    Ok(SkillMd {
        name,
        description,
        frontmatter: map,
        body,
    })
}

/// The DESIGN §10 name rule: 1–64 chars of `^[a-z0-9]+(-[a-z0-9]+)*$`. Checked
/// before any path or URL is built from a name.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}
