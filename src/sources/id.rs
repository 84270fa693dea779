//! What kind of source a string names: the one parser of what a user wrote
//! on the command line, in `skills.toml` or in `skills.lock` (docs/architecture.md,
//! "One home per rule"). Every "is this a location or a name, and of which
//! kind" decision goes through [`SourceSpec::parse`] and [`looks_like_location`].

use std::path::Path;

use url::Url;

use crate::error::{Classify, Exit};
use crate::project::manifest::SourceDecl;
use crate::sources::oci::OciRef;

/// The discovery paths probed under a base, in order.
pub const WELL_KNOWN_INDEXES: [&str; 2] = [
    ".well-known/agent-skills/index.json",
    ".well-known/skills/index.json",
];

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

/// Where a source's index is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// The index itself (the URL ends in `.json`).
    Index(Url),
    /// A base URL whose well-known paths are probed.
    Base(Url),
    /// A git repository (`github:…`, `….git`, `ssh://…`, `git@…`): pinned to
    /// a commit by the git source support.
    Git(String),
    /// An MCP server speaking the Skills extension (`mcp+https://…`), read
    /// by [`crate::sources::mcp::client`].
    Mcp(String),
    /// An OCI registry namespace or repository (`oci://HOST/NS[/NAME][:TAG]`),
    /// read by [`crate::sources::oci`].
    Oci(OciRef),
}

impl SourceSpec {
    /// Parses what a user wrote: an http(s) or file URL, a git form, or a path
    /// (relative to `base_dir`).
    pub fn parse(text: &str, base_dir: &Path) -> Result<Self, SpecError> {
        let trimmed = text.trim();
        // Before anything could echo the text (docs/network.md).
        crate::net::refuse_credentials(trimmed)?;
        let bad = |reason: &str| SpecError::NotASource {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        if trimmed.is_empty() {
            return Err(bad("it is empty"));
        }
        if crate::sources::mcp::client::is_mcp_form(trimmed) {
            crate::sources::mcp::client::endpoint(trimmed).map_err(|e| bad(&e.to_string()))?;
            return Ok(SourceSpec::Mcp(trimmed.to_owned()));
        }
        if trimmed.starts_with(crate::sources::oci::SCHEME) {
            let reference = OciRef::parse(trimmed).map_err(|e| bad(&e))?;
            return Ok(SourceSpec::Oci(reference));
        }
        if is_git_form(trimmed) {
            return Ok(SourceSpec::Git(trimmed.to_owned()));
        }
        let url = match Url::parse(trimmed) {
            // One-letter "schemes" are Windows drive letters: a path.
            Ok(url) if url.scheme().len() > 1 => {
                let scheme = url.scheme();
                if !matches!(scheme, "http" | "https" | "file") {
                    return Err(bad(&format!(
                        "`{scheme}:` URLs are not supported (use https://, http://, file:// or a path)"
                    )));
                }
                if url.scheme() == "file" && url.to_file_path().is_err() {
                    return Err(bad("the file:// URL does not name a local path"));
                }
                if url.cannot_be_a_base() || (url.scheme() != "file" && url.host().is_none()) {
                    return Err(bad("the URL has no host"));
                }
                url
            }
            Err(e) if trimmed.contains("://") => {
                return Err(bad(&format!("it is not a valid URL: {e}")));
            }
            _ => {
                let path = base_dir.join(trimmed);
                Url::from_file_path(&path).map_err(|()| bad("the path cannot be made absolute"))?
            }
        };
        Ok(classify_url(url))
    }

    /// The index URLs to try, in order.
    pub fn candidates(&self) -> Vec<Url> {
        match self {
            SourceSpec::Index(url) => vec![url.clone()],
            SourceSpec::Base(base) => {
                let mut dir = base.clone();
                dir.set_query(None);
                dir.set_fragment(None);
                if !dir.path().ends_with('/') {
                    let path = format!("{}/", dir.path());
                    dir.set_path(&path);
                }
                WELL_KNOWN_INDEXES
                    .iter()
                    .filter_map(|p| dir.join(p).ok())
                    .collect()
            }
            SourceSpec::Git(_) | SourceSpec::Mcp(_) | SourceSpec::Oci(_) => Vec::new(),
        }
    }

    /// The URL the user's text became (for display and for the token's origin).
    pub fn url(&self) -> Option<&Url> {
        match self {
            SourceSpec::Index(u) | SourceSpec::Base(u) => Some(u),
            SourceSpec::Git(_) | SourceSpec::Mcp(_) | SourceSpec::Oci(_) => None,
        }
    }
}

fn classify_url(url: Url) -> SourceSpec {
    if url.path().to_ascii_lowercase().ends_with(".json") {
        SourceSpec::Index(url)
    } else {
        SourceSpec::Base(url)
    }
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
    let spec = SourceSpec::parse(text, cwd)?;
    let is_plain_path = !text.contains("://") && !matches!(spec, SourceSpec::Git(_));
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

/// The repository a declared source names, when it is a git source (the
/// forms of docs/design.md#formats; a folder publishing `.well-known/` is an
/// index), and the folder inside it where its skills are looked for: the
/// spec's own subfolder joined with the source's `path` (`None`: the whole
/// repository), and the ref it declares (`None`: the default branch).
pub fn declared_git(decl: &SourceDecl, project_root: &Path) -> Option<DeclaredGit> {
    let text = match SourceSpec::parse(&decl.url, project_root).ok()? {
        SourceSpec::Git(text) => text,
        SourceSpec::Base(url)
            if url.scheme() == "file"
                && !url
                    .to_file_path()
                    .is_ok_and(|dir| dir.join(".well-known").is_dir()) =>
        {
            decl.url.clone()
        }
        _ => return None,
    };
    let spec = crate::git::parse_git_spec(&text, None, project_root)
        .ok()
        .flatten()?;
    Some(DeclaredGit {
        url: spec.url(),
        folder: spec.join_subpath(decl.path.as_deref().unwrap_or("")),
        reference: spec.reference.clone(),
    })
}

/// What [`declared_git`] finds in a declared git source.
pub struct DeclaredGit {
    pub url: String,
    pub folder: Option<String>,
    pub reference: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_classified_and_probed_in_order() {
        let cwd = Path::new("/work/project");
        let base = SourceSpec::parse("https://skills.acme.dev", cwd).unwrap();
        let urls: Vec<String> = base.candidates().iter().map(Url::to_string).collect();
        assert_eq!(
            urls,
            [
                "https://skills.acme.dev/.well-known/agent-skills/index.json",
                "https://skills.acme.dev/.well-known/skills/index.json"
            ]
        );
        let sub = SourceSpec::parse("https://h.example/team/", cwd).unwrap();
        assert_eq!(
            sub.candidates()[0].as_str(),
            "https://h.example/team/.well-known/agent-skills/index.json"
        );
        let no_slash = SourceSpec::parse("https://h.example/team", cwd).unwrap();
        assert_eq!(no_slash.candidates(), sub.candidates());
        let index = SourceSpec::parse("https://h.example/x/index.json", cwd).unwrap();
        assert!(matches!(index, SourceSpec::Index(_)));
        let path = SourceSpec::parse("registry", cwd).unwrap();
        assert_eq!(
            path.candidates()[1].as_str(),
            "file:///work/project/registry/.well-known/skills/index.json"
        );
        let file_index = SourceSpec::parse("file:///srv/reg/index.json", cwd).unwrap();
        assert!(matches!(file_index, SourceSpec::Index(_)));
        for git in [
            "github:owner/repo",
            "https://g.example/x.git",
            "git@github.com:o/r.git",
            "ssh://h/r",
            "file:///srv/git/skills.git#v2",
            "https://github.com/o/r/tree/main/skills/pdf",
        ] {
            assert!(
                matches!(SourceSpec::parse(git, cwd).unwrap(), SourceSpec::Git(_)),
                "{git}"
            );
        }
        for bad in [
            "",
            "ftp://h/x",
            "mailto:x@y",
            "https://",
            "oci://",
            "oci://h",
            "oci://h/X",
        ] {
            assert!(SourceSpec::parse(bad, cwd).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn oci_forms_are_one_kind() {
        let cwd = Path::new("/work/project");
        match SourceSpec::parse("oci://ghcr.io/acme/skills", cwd).unwrap() {
            SourceSpec::Oci(r) => assert_eq!(r.repository, "acme/skills"),
            other => panic!("{other:?}"),
        }
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
