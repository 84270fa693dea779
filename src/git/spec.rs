//! Parsing what a user writes for a git source into a [`GitSpec`].
//!
//! Accepted forms (one example each):
//!
//! | form | example |
//! |---|---|
//! | GitHub shorthand | `github:anthropics/skills/skills/pdf@v1.2` |
//! | GitHub folder URL | `https://github.com/anthropics/skills/tree/main/skills/pdf` |
//! | GitHub repository URL | `https://github.com/anthropics/skills` |
//! | HTTPS git URL | `https://git.example.com/team/skills.git#v2` |
//! | SSH URL | `ssh://git@git.example.com/team/skills.git` |
//! | scp-like SSH | `git@git.example.com:team/skills.git` |
//! | `file://` URL of a repository | `file:///srv/git/skills.git` |
//! | local path of a repository | `../skills-repo` |
//!
//! The ref comes from `@ref` (GitHub shorthand), the `tree/<ref>` segment
//! (GitHub folder URL), a `#ref` fragment (other URLs) or `--ref`; giving two
//! different refs is an error rather than a silent choice. A subpath comes
//! from the GitHub forms or [`GitSpec::with_subpath`] (`--path`).

use std::fmt;
use std::path::{Path, PathBuf};

use super::GitError;
use super::names::check_segment;

/// The host every `github:` spec and github.com URL names.
pub const GITHUB_WEB: &str = "https://github.com";

/// Where a git source's repository lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Repo {
    /// A github.com repository: eligible for the archive fast path.
    GitHub { owner: String, name: String },
    /// Any other git URL: `https://…`, `ssh://…`, `git@host:path`, `git://…`,
    /// or `file://…` (local paths are turned into absolute `file://` URLs).
    Url(String),
}

/// A parsed git source: which repository, which ref, which folder inside.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GitSpec {
    pub repo: Repo,
    /// Branch, tag, full ref name (`refs/…`) or commit SHA (full, or an
    /// abbreviation of at least 7 hex digits). `None`: the remote's HEAD.
    pub reference: Option<String>,
    /// Folder inside the repository, `/`-separated, no leading or trailing
    /// `/`. `None`: the repository root.
    pub subpath: Option<String>,
}

impl GitSpec {
    /// The repository URL recorded in `skills.lock` and used as the cache
    /// key: `https://github.com/<owner>/<name>` for GitHub, else the URL.
    /// [`parse_git_spec`] maps it back to the same [`Repo`].
    pub fn url(&self) -> String {
        self.repo.url()
    }

    /// The same source with `subpath` (`--path`) instead of the one parsed.
    /// `None` keeps the parsed one; a different one given twice is an error.
    pub fn with_subpath(mut self, subpath: Option<&str>) -> Result<GitSpec, GitError> {
        let Some(raw) = subpath else {
            return Ok(self);
        };
        let normalized = normalize_folder(raw).map_err(|message| GitError::spec(raw, message))?;
        match (&self.subpath, &normalized) {
            (Some(old), Some(new)) if old != new => Err(GitError::spec(
                raw,
                format!("the source already names the folder `{old}`; give the folder once"),
            )),
            _ => {
                if normalized.is_some() {
                    self.subpath = normalized;
                }
                Ok(self)
            }
        }
    }

    /// The same source pinned to `reference` (used by `update` to follow a
    /// new ref, and by tests).
    pub fn with_reference(mut self, reference: Option<&str>) -> Result<GitSpec, GitError> {
        self.reference = match reference {
            Some(r) => normalize_ref(r)?,
            None => None,
        };
        Ok(self)
    }

    /// The repository path of `rel` (a path relative to this spec's subpath,
    /// as [`crate::skill::discover::RepoSkill::path`] gives it): what `skills.lock` records as
    /// the skill's `subpath`. `None` means the repository root.
    pub fn join_subpath(&self, rel: &str) -> Option<String> {
        let base = self.subpath.as_deref().unwrap_or("");
        let joined = crate::skill::discover::join(base, rel.trim_matches('/'));
        (!joined.is_empty()).then_some(joined)
    }
}

impl Repo {
    pub fn url(&self) -> String {
        match self {
            Repo::GitHub { owner, name } => format!("{GITHUB_WEB}/{owner}/{name}"),
            Repo::Url(url) => url.clone(),
        }
    }
}

impl fmt::Display for GitSpec {
    /// A form the user can paste back: `github:o/r/sub@ref`, or
    /// `<url>#ref` plus ` (path sub)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |form: fn(&str) -> String, value: &Option<String>| {
            value.as_deref().map(form).unwrap_or_default()
        };
        let (sub, reference) = (&self.subpath, &self.reference);
        match &self.repo {
            Repo::GitHub { owner, name } => {
                let sub = part(|s| format!("/{s}"), sub);
                let reference = part(|r| format!("@{r}"), reference);
                write!(f, "github:{owner}/{name}{sub}{reference}")
            }
            Repo::Url(url) => {
                let reference = part(|r| format!("#{r}"), reference);
                let sub = part(|s| format!(" (path {s})"), sub);
                write!(f, "{url}{reference}{sub}")
            }
        }
    }
}

/// Parses `input` as a git source. `Ok(None)`: it is not one (the caller
/// tries index sources). `ref_override` is `--ref`. Relative paths are
/// resolved against `base_dir`; a path counts as a git source only when it
/// holds a repository (a `.git` entry, or a bare repository's layout).
pub fn parse_git_spec(
    input: &str,
    ref_override: Option<&str>,
    base_dir: &Path,
) -> Result<Option<GitSpec>, GitError> {
    let spec_err = |message: String| GitError::spec(input, message);
    let text = input.trim();
    // Before anything could echo the text (docs/network.md).
    crate::net::refuse_credentials(text)?;
    let parsed = if let Some(rest) = text.strip_prefix("github:") {
        Some(parse_github_shorthand(rest).map_err(spec_err)?)
    } else {
        let text = text.strip_prefix("git+").unwrap_or(text);
        if let Some((scheme, _)) = text.split_once("://") {
            parse_url(&scheme.to_ascii_lowercase(), text).map_err(spec_err)?
        } else if is_scp_like(text) {
            let (url, fragment) = split_fragment(text);
            Some(Parsed::url(url.to_owned(), fragment))
        } else {
            local_repository(&base_dir.join(text))
                .map(|path| Parsed::url(file_url(&path), None))
                .or_else(|| {
                    // `../skills#v2`: how `skillpm add --ref` records a local repository.
                    let (path, fragment) = split_fragment(text);
                    fragment?;
                    local_repository(&base_dir.join(path))
                        .map(|path| Parsed::url(file_url(&path), fragment))
                })
        }
    };
    let Some(parsed) = parsed else {
        return Ok(None);
    };
    let reference = match (parsed.reference, ref_override) {
        (Some(a), Some(b)) if a != b => {
            return Err(spec_err(format!(
                "the source names ref `{a}` but --ref says `{b}`; give the ref once"
            )));
        }
        (Some(r), _) => normalize_ref(&r)?,
        (None, Some(r)) => normalize_ref(r)?,
        (None, None) => None,
    };
    let subpath = match parsed.subpath {
        Some(s) => normalize_folder(&s).map_err(spec_err)?,
        None => None,
    };
    Ok(Some(GitSpec {
        repo: parsed.repo,
        reference,
        subpath,
    }))
}

/// What one syntax yields before the shared checks.
struct Parsed {
    repo: Repo,
    reference: Option<String>,
    subpath: Option<String>,
}

impl Parsed {
    fn url(url: String, reference: Option<&str>) -> Parsed {
        Parsed {
            repo: Repo::Url(url),
            reference: reference.map(str::to_owned),
            subpath: None,
        }
    }
}

/// `owner/repo[/subpath][@ref]`.
fn parse_github_shorthand(rest: &str) -> Result<Parsed, String> {
    let (path, reference) = match rest.rsplit_once('@') {
        Some((path, r)) => (path, Some(r.to_owned())),
        None => (rest, None),
    };
    let mut parts = path.splitn(3, '/');
    let owner = parts.next().unwrap_or("");
    let name = parts.next().unwrap_or("");
    let subpath = parts.next().map(str::to_owned);
    Ok(Parsed {
        repo: github_repo(owner, name)?,
        reference,
        subpath,
    })
}

fn parse_url(scheme: &str, text: &str) -> Result<Option<Parsed>, String> {
    match scheme {
        "http" | "https" => {
            let (without_fragment, fragment) = split_fragment(text);
            let url =
                url::Url::parse(without_fragment).map_err(|e| format!("not a valid URL: {e}"))?;
            if matches!(url.host_str(), Some("github.com" | "www.github.com")) {
                return parse_github_url(&url, fragment).map(Some);
            }
            if url.path().trim_end_matches('/').ends_with(".git") {
                Ok(Some(Parsed::url(without_fragment.to_owned(), fragment)))
            } else {
                // Plain web URLs are index sources (docs/design.md#formats).
                Ok(None)
            }
        }
        "ssh" | "git" | "git+ssh" | "ssh+git" => {
            let (url, fragment) = split_fragment(text);
            let url = url
                .replacen("git+ssh://", "ssh://", 1)
                .replacen("ssh+git://", "ssh://", 1);
            url::Url::parse(&url).map_err(|e| format!("not a valid URL: {e}"))?;
            Ok(Some(Parsed::url(url, fragment)))
        }
        "file" => {
            let (url, fragment) = split_fragment(text);
            let parsed = url::Url::parse(url).map_err(|e| format!("not a valid URL: {e}"))?;
            let path = parsed
                .to_file_path()
                .map_err(|()| "a file:// URL must name an absolute local path".to_owned())?;
            Ok(local_repository(&path).map(|path| Parsed::url(file_url(&path), fragment)))
        }
        _ => Ok(None),
    }
}

/// `https://github.com/<owner>/<repo>[.git][/tree/<ref>[/<subpath>]]`.
fn parse_github_url(url: &url::Url, fragment: Option<&str>) -> Result<Parsed, String> {
    let segments: Vec<&str> = url
        .path()
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let (owner, name) = match segments.as_slice() {
        [owner, name, ..] => (*owner, *name),
        _ => return Err("a GitHub URL must name `https://github.com/<owner>/<repo>`".into()),
    };
    let repo = github_repo(owner, name.strip_suffix(".git").unwrap_or(name))?;
    let (reference, subpath) = match &segments[2..] {
        [] => (fragment.map(str::to_owned), None),
        ["tree", reference, rest @ ..] => {
            if fragment.is_some() {
                return Err("give the ref either in `tree/<ref>` or as `#ref`, not both".into());
            }
            let decoded = |s: &str| {
                crate::names::percent_decode(s)
                    .ok_or_else(|| format!("`{s}` is not valid percent-encoding"))
            };
            let subpath = if rest.is_empty() {
                None
            } else {
                Some(
                    rest.iter()
                        .map(|s| decoded(s))
                        .collect::<Result<Vec<_>, _>>()?
                        .join("/"),
                )
            };
            (Some(decoded(reference)?), subpath)
        }
        _ => {
            return Err("only repository URLs and folder URLs \
                 (`https://github.com/<owner>/<repo>/tree/<ref>/<path>`) name a git source"
                .into());
        }
    };
    Ok(Parsed {
        repo,
        reference,
        subpath,
    })
}

fn github_repo(owner: &str, name: &str) -> Result<Repo, String> {
    let owner_ok = !owner.is_empty()
        && owner.len() <= 39
        && owner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let name_ok = !name.is_empty()
        && name.len() <= 100
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !owner_ok || !name_ok {
        return Err(format!(
            "`{owner}/{name}` is not a GitHub repository name; write `github:<owner>/<repo>`"
        ));
    }
    let name = name.strip_suffix(".git").unwrap_or(name);
    Ok(Repo::GitHub {
        owner: owner.to_owned(),
        name: name.to_owned(),
    })
}

/// `user@host:path`, the scp-like SSH syntax (a user is required, so that
/// `C:\dir` and `github:` never match).
fn is_scp_like(text: &str) -> bool {
    let Some((user_host, path)) = text.split_once(':') else {
        return false;
    };
    let Some((user, host)) = user_host.split_once('@') else {
        return false;
    };
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
    };
    plain(user) && plain(host) && !path.is_empty()
}

fn split_fragment(text: &str) -> (&str, Option<&str>) {
    match text.split_once('#') {
        Some((url, fragment)) => (url, Some(fragment)),
        None => (text, None),
    }
}

/// The folder holding a repository at `path`, canonicalized, when there is
/// one: a work tree (`.git` entry) or a bare repository.
fn local_repository(path: &Path) -> Option<PathBuf> {
    let is_repo = path.join(".git").exists()
        || (path.join("HEAD").is_file()
            && path.join("objects").is_dir()
            && path.join("refs").is_dir());
    is_repo.then(|| path.canonicalize().ok()).flatten()
}

fn file_url(path: &Path) -> String {
    url::Url::from_file_path(path)
        .map(String::from)
        .unwrap_or_else(|()| format!("file://{}", path.display()))
}

/// `--path` for any source (git or folder): a clean `/`-separated folder
/// inside it, `None` for the root; `..`, absolute paths, drive letters,
/// backslashes and control characters are refused with the reason.
pub fn normalize_folder(raw: &str) -> Result<Option<String>, String> {
    let trimmed = raw.trim_matches('/');
    if trimmed.is_empty() || trimmed == "." {
        return Ok(None);
    }
    for segment in trimmed.split('/') {
        check_segment(segment.as_bytes())
            .map_err(|why| format!("the folder `{raw}` is not a safe relative path: {why}"))?;
    }
    Ok(Some(trimmed.to_owned()))
}

/// Checks a ref the way git does (`git check-ref-format`), so it can never
/// be read as an option, a refspec or a revision expression.
pub(crate) fn normalize_ref(raw: &str) -> Result<Option<String>, GitError> {
    let err = |message: &str| GitError::spec(raw, message);
    let r = raw.trim();
    if r.is_empty() {
        return Err(err("the ref is empty; give a branch, tag or commit SHA"));
    }
    if r == "HEAD" {
        return Ok(None);
    }
    if r.starts_with('-') {
        return Err(err("a ref may not start with `-`"));
    }
    let full = if r.starts_with("refs/") {
        r.to_owned()
    } else {
        format!("refs/heads/{r}")
    };
    if gix::refs::FullName::try_from(full.as_str()).is_err() || r.contains('*') {
        return Err(err(
            "not a valid branch, tag or commit name (see `git check-ref-format`)",
        ));
    }
    Ok(Some(r.to_owned()))
}

/// A full, lowercase-or-uppercase 40-hex SHA-1 commit id.
pub fn is_full_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Something that may abbreviate a commit id (7 to 39 hex digits).
pub(crate) fn is_abbreviated_sha(s: &str) -> bool {
    (7..40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Option<GitSpec> {
        parse_git_spec(s, None, Path::new("/nonexistent-base")).unwrap()
    }

    fn github(owner: &str, name: &str) -> Repo {
        Repo::GitHub {
            owner: owner.into(),
            name: name.into(),
        }
    }

    #[test]
    fn github_shorthand_with_subpath_and_ref() {
        let spec = parse("github:acme/skills/tools/pdf@v1.2").unwrap();
        assert_eq!(spec.repo, github("acme", "skills"));
        assert_eq!(spec.subpath.as_deref(), Some("tools/pdf"));
        assert_eq!(spec.reference.as_deref(), Some("v1.2"));
        assert_eq!(spec.url(), "https://github.com/acme/skills");
        assert_eq!(spec.to_string(), "github:acme/skills/tools/pdf@v1.2");
        let bare = parse("github:acme/skills").unwrap();
        assert_eq!((bare.reference, bare.subpath), (None, None));
    }

    #[test]
    fn github_urls() {
        let spec = parse("https://github.com/acme/skills/tree/main/skills/pdf").unwrap();
        assert_eq!(spec.repo, github("acme", "skills"));
        assert_eq!(spec.reference.as_deref(), Some("main"));
        assert_eq!(spec.subpath.as_deref(), Some("skills/pdf"));
        let spec = parse("https://github.com/acme/skills.git").unwrap();
        assert_eq!(spec.repo, github("acme", "skills"));
        // The lock's URL parses back to the same repository.
        let again = parse(&spec.url()).unwrap();
        assert_eq!(again.repo, spec.repo);
        assert!(
            parse_git_spec(
                "https://github.com/acme/skills/issues/3",
                None,
                Path::new("/")
            )
            .is_err()
        );
    }

    #[test]
    fn generic_urls_with_fragment_ref() {
        let spec = parse("https://git.example.com/team/skills.git#v2").unwrap();
        assert_eq!(
            spec.repo,
            Repo::Url("https://git.example.com/team/skills.git".into())
        );
        assert_eq!(spec.reference.as_deref(), Some("v2"));
        let spec = parse("ssh://git@git.example.com/team/skills.git").unwrap();
        assert_eq!(
            spec.repo,
            Repo::Url("ssh://git@git.example.com/team/skills.git".into())
        );
        let spec = parse("git@git.example.com:team/skills.git").unwrap();
        assert_eq!(
            spec.repo,
            Repo::Url("git@git.example.com:team/skills.git".into())
        );
        let spec = parse("git+https://git.example.com/x.git").unwrap();
        assert_eq!(spec.repo, Repo::Url("https://git.example.com/x.git".into()));
    }

    #[test]
    fn index_sources_are_not_git() {
        assert_eq!(parse("https://skills.acme.dev"), None);
        assert_eq!(parse("https://skills.acme.dev/index.json"), None);
        assert_eq!(parse("./some/registry"), None);
        assert_eq!(parse("file:///nonexistent/registry"), None);
        assert_eq!(parse("C:\\registry"), None);
    }

    #[test]
    fn refs_are_checked_and_agree() {
        let base = Path::new("/");
        let spec = parse_git_spec("github:a/b", Some("main"), base)
            .unwrap()
            .unwrap();
        assert_eq!(spec.reference.as_deref(), Some("main"));
        assert!(parse_git_spec("github:a/b@v1", Some("v2"), base).is_err());
        assert!(parse_git_spec("github:a/b@v1", Some("v1"), base).is_ok());
        for bad in ["-x", "a..b", "a b", "x:y", "a*", "~1", ""] {
            assert!(
                parse_git_spec("github:a/b", Some(bad), base).is_err(),
                "{bad:?} accepted"
            );
        }
        let head = parse_git_spec("github:a/b", Some("HEAD"), base)
            .unwrap()
            .unwrap();
        assert_eq!(head.reference, None);
    }

    #[test]
    fn credentials_in_urls_are_refused() {
        assert!(parse_git_spec("https://u:p@host/x.git", None, Path::new("/")).is_err());
        assert!(parse_git_spec("https://token@host/x.git", None, Path::new("/")).is_err());
    }

    #[test]
    fn subpaths_are_safe_and_join() {
        assert!(parse_git_spec("github:a/b/../etc", None, Path::new("/")).is_err());
        let spec = parse("github:a/b").unwrap();
        let spec = spec.with_subpath(Some("/tools/")).unwrap();
        assert_eq!(spec.subpath.as_deref(), Some("tools"));
        assert_eq!(spec.join_subpath("pdf").as_deref(), Some("tools/pdf"));
        assert_eq!(spec.join_subpath("").as_deref(), Some("tools"));
        assert!(spec.clone().with_subpath(Some("other")).is_err());
        assert!(spec.with_subpath(Some("a/./b")).is_err());
        assert_eq!(parse("github:a/b").unwrap().join_subpath(""), None);
    }

    #[test]
    fn bad_github_names() {
        for bad in [
            "github:",
            "github:a",
            "github:a/",
            "github:a b/c",
            "github:a/..",
        ] {
            assert!(
                parse_git_spec(bad, None, Path::new("/")).is_err(),
                "{bad} accepted"
            );
        }
    }
}
