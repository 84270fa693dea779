//! What a source's location says as far as its text goes (docs/architecture.md,
//! "One home per rule"): a location or a name ([`looks_like_location`]), the
//! URL it names ([`parse`]), the git forms, and how skills.toml keeps it.
//! Which kind of source it is, is `sources::id`'s one decision, made from this.

use std::path::Path;

use url::Url;

use crate::error::{Classify, Exit};

/// Text that names no source of any kind, or a URL carrying credentials
/// (shown without them).
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("{text:?} is not a source: {reason}")]
    NotASource { text: String, reason: String },
    #[error(transparent)]
    Credentials(#[from] crate::net::CredentialsInUrl),
}

crate::classified!(SpecError);
impl Classify for SpecError {
    fn exit(&self) -> Exit {
        match self {
            SpecError::NotASource { .. } | SpecError::Credentials(_) => Exit::Usage,
        }
    }
}

/// Whether a word on the command line is a location (URL, path, git or OCI
/// form) rather than the name of a declared source or skill: it has a `/`,
/// `:` or `\`, starts with `.`, or ends in `.json`.
pub fn looks_like_location(text: &str) -> bool {
    text.contains('/')
        || text.contains(':')
        || text.contains('\\')
        || text.starts_with('.')
        || text.ends_with(".json")
}

/// A location parsed as far as its text goes, before its kind is known.
pub struct Written<'a> {
    /// The text, trimmed.
    pub text: &'a str,
    /// The http(s) or `file:` URL it names (a path made absolute against
    /// `base_dir`); `None` for other schemes and forms, which only a kind
    /// can recognize.
    pub url: Option<Url>,
    pub base_dir: &'a Path,
    /// Why the text names no source, should no kind recognize it.
    refusal: String,
}

impl Written<'_> {
    /// The error for text no kind recognizes, or that a kind refuses.
    pub fn not_a_source(&self, reason: &str) -> SpecError {
        SpecError::NotASource {
            text: self.text.to_owned(),
            reason: reason.to_owned(),
        }
    }

    /// [`Written::not_a_source`] with the reason the text itself gives.
    pub fn unrecognized(&self) -> SpecError {
        self.not_a_source(&self.refusal)
    }
}

/// Parses what a user wrote: an http(s) or file URL, a path (relative to
/// `base_dir`), or another form a kind may recognize (`github:`, `git@…`,
/// `mcp+https://…`, `oci://…`). Text holding credentials, or empty, is refused.
pub fn parse<'a>(text: &'a str, base_dir: &'a Path) -> Result<Written<'a>, SpecError> {
    let trimmed = text.trim();
    // Before anything could echo the text (docs/network.md).
    crate::net::refuse_credentials(trimmed)?;
    let mut at = Written {
        text: trimmed,
        url: None,
        base_dir,
        refusal: String::new(),
    };
    if trimmed.is_empty() {
        return Err(at.not_a_source("it is empty"));
    }
    match Url::parse(trimmed) {
        // One-letter "schemes" are Windows drive letters: a path.
        Ok(url) if url.scheme().len() > 1 => {
            let scheme = url.scheme();
            at.refusal = if !matches!(scheme, "http" | "https" | "file") {
                format!(
                    "`{scheme}:` URLs are not supported (use https://, http://, file:// or a path)"
                )
            } else if scheme == "file" && url.to_file_path().is_err() {
                "the file:// URL does not name a local path".into()
            } else if url.cannot_be_a_base() || (scheme != "file" && url.host().is_none()) {
                "the URL has no host".into()
            } else {
                at.url = Some(url);
                String::new()
            };
        }
        Err(e) if trimmed.contains("://") => at.refusal = format!("it is not a valid URL: {e}"),
        _ => {
            let path = base_dir.join(trimmed);
            match Url::from_file_path(&path) {
                Ok(url) => at.url = Some(url),
                Err(()) => at.refusal = "the path cannot be made absolute".into(),
            }
        }
    }
    Ok(at)
}

/// The git forms of docs/design.md#formats (except a local path naming a
/// repository, which only the git support can recognise). A `#ref` fragment
/// (`…/skills.git#v2`, as `skillpm add --ref` writes it) does not hide the
/// `.git`, and github.com web URLs (`…/tree/<ref>/<path>`) are repositories:
/// GitHub serves no skill index there.
pub fn is_git_form(text: &str) -> bool {
    let without_ref = text.split_once('#').map_or(text, |(url, _)| url);
    text.starts_with("github:")
        || text.starts_with("ssh://")
        || text.starts_with("git://")
        || text.starts_with("git+")
        || (text.starts_with("git@") && text.contains(':'))
        || without_ref.trim_end_matches('/').ends_with(".git")
        || ["https://github.com/", "https://www.github.com/"]
            .iter()
            .any(|web| text.starts_with(web))
}

/// How a source's location is written into skills.toml: URLs as given; a
/// path relative to the project root when it lies inside the project (so the
/// file works on every clone), absolute otherwise.
pub fn manifest_url(text: &str, cwd: &Path, project_root: &Path) -> anyhow::Result<String> {
    parse(text, cwd)?;
    let is_plain_path = !text.contains("://") && !is_git_form(text.trim());
    if !is_plain_path {
        return Ok(text.trim().to_owned());
    }
    let absolute = cwd.join(text.trim());
    let normalized = normalize_lexically(&absolute);
    match normalized.strip_prefix(project_root) {
        Ok(rel) if rel.as_os_str().is_empty() => Ok(".".into()),
        Ok(rel) => Ok(rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")),
        Err(_) => Ok(normalized.to_string_lossy().into_owned()),
    }
}

/// Removes `.` and resolves `..` without touching the file system (the path
/// may not exist yet, and symlinks are irrelevant to how it is written down).
fn normalize_lexically(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths_are_parsed_and_the_rest_left_to_the_kinds() {
        let cwd = Path::new("/work/project");
        let url = |t: &str| parse(t, cwd).unwrap().url.map(|u| u.to_string());
        assert_eq!(url("registry").unwrap(), "file:///work/project/registry");
        assert_eq!(url("https://h.example/x").unwrap(), "https://h.example/x");
        for other in ["github:o/r", "oci://h/x", "mcp+https://h/mcp", "ftp://h/x"] {
            assert_eq!(url(other), None, "{other}");
        }
        assert!(
            parse("ftp://h/x", cwd)
                .unwrap()
                .unrecognized()
                .to_string()
                .contains("`ftp:` URLs are not supported")
        );
        assert!(parse("", cwd).is_err());
        assert!(parse("https://u:p@h.example/x", cwd).is_err());
        for word in ["oci://h/x", "./x", "a/b", "x.json", "github:o/r"] {
            assert!(looks_like_location(word), "{word}");
        }
        for word in ["pdf", "my-skill", "team"] {
            assert!(!looks_like_location(word), "{word}");
        }
    }
}

#[cfg(test)]
mod manifest_url_tests {
    use super::manifest_url;
    use std::path::Path;

    #[test]
    fn paths_inside_the_project_are_stored_relative() {
        let root = Path::new("/p");
        assert_eq!(
            manifest_url("reg", Path::new("/p/sub"), root).unwrap(),
            "sub/reg"
        );
        assert_eq!(
            manifest_url("../reg", Path::new("/p/sub"), root).unwrap(),
            "reg"
        );
        assert_eq!(manifest_url("./", Path::new("/p"), root).unwrap(), ".");
        assert_eq!(manifest_url("../x", Path::new("/p"), root).unwrap(), "/x");
        assert_eq!(
            manifest_url("/srv/reg", Path::new("/p"), root).unwrap(),
            "/srv/reg"
        );
        assert_eq!(
            manifest_url("https://h.example/x", Path::new("/p"), root).unwrap(),
            "https://h.example/x"
        );
    }
}
