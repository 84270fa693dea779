//! What a policy pattern is matched against (docs/policy.md#patterns): a
//! source's location in one normal form, whichever way skills.toml or
//! skills.lock wrote it, and the patterns themselves.
//!
//! | source | location |
//! |---|---|
//! | registry (index) | `https://host[:port]/path` (no query, fragment or credentials; no trailing `/`) |
//! | git | `https://github.com/OWNER/REPO` for every GitHub form, `ssh://host/path` for `git@host:path`, else the URL; no `.git` suffix |
//! | OCI | `oci://registry/repository` (no tag, no digest) |
//! | MCP | `mcp+https://host/path` |
//! | folder, `file://` | the absolute path, symbolic links resolved |

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use url::Url;

use crate::sources::location::{is_git_form, parse};

/// The normal form of the location `text` names (relative paths against
/// `base_dir`). Text that names no source is kept as written, trimmed,
/// so a pattern can still deny it.
///
/// Remembered per process: a no-op install of 500 checks each lock entry's
/// location before it fetches and again at the gate, and resolving a folder
/// or `file://` location to its real path is a `readlink` per path part
/// (docs/policy.md#cost).
pub fn location(text: &str, base_dir: &Path) -> String {
    static SEEN: LazyLock<Mutex<HashMap<(String, PathBuf), String>>> =
        LazyLock::new(Default::default);
    let key = (text.to_owned(), base_dir.to_owned());
    if let Some(form) = SEEN.lock().ok().and_then(|seen| seen.get(&key).cloned()) {
        return form;
    }
    let form = github_form(normal_form(text, base_dir));
    if let Ok(mut seen) = SEEN.lock() {
        seen.insert(key, form.clone());
    }
    form
}

/// [`location`], worked out.
fn normal_form(text: &str, base_dir: &Path) -> String {
    let text = text.trim();
    let Ok(at) = parse(text, base_dir) else {
        return text.to_owned();
    };
    if crate::sources::mcp::client::is_mcp_form(text) {
        return match Url::parse(text.trim_start_matches("mcp+")) {
            Ok(url) => format!("mcp+{}", url_form(&url)),
            Err(_) => text.to_owned(),
        };
    }
    if let Ok(r) = crate::sources::oci::OciRef::parse(text) {
        return format!(
            "{}{}/{}",
            crate::sources::oci::SCHEME,
            r.registry,
            r.repository
        );
    }
    if is_git_form(text) {
        return git_form(text, base_dir);
    }
    match &at.url {
        Some(url) => url_form(url),
        None => text.to_owned(),
    }
}

/// The repository a git form names, in normal form.
fn git_form(text: &str, base_dir: &Path) -> String {
    let repo = match crate::git::parse_git_spec(text, None, base_dir) {
        Ok(Some(spec)) => spec.url(),
        _ => text.split_once('#').map_or(text, |(u, _)| u).to_owned(),
    };
    let repo = repo.strip_prefix("git+").unwrap_or(&repo).to_owned();
    let form = match Url::parse(&repo) {
        Ok(url) if url.scheme().len() > 1 => url_form(&url),
        // `git@host:path`: the scp-like form of `ssh://host/path`.
        _ => match repo.split_once(':') {
            Some((user_host, path)) if user_host.contains('@') => {
                let host = user_host.rsplit_once('@').map_or(user_host, |(_, h)| h);
                format!(
                    "ssh://{}/{}",
                    host.to_ascii_lowercase(),
                    path.trim_matches('/')
                )
            }
            _ => repo,
        },
    };
    // A repository on this machine is its path, as a folder source is.
    if form.starts_with('/') {
        return form;
    }
    strip_git(&form).to_owned()
}

fn strip_git(text: &str) -> &str {
    text.strip_suffix(".git").unwrap_or(text)
}

/// The ways a form can name a repository on GitHub (https, the web host's
/// `www.`, ssh on port 22 or GitHub's port 443 host), each followed by
/// `OWNER/REPO`.
const GITHUB_PREFIXES: &[&str] = &[
    "https://github.com/",
    "https://www.github.com/",
    "http://github.com/",
    "http://www.github.com/",
    "ssh://github.com/",
    "ssh://github.com:22/",
    "ssh://ssh.github.com:443/",
    "git://github.com/",
];

/// A location or pattern on GitHub in one form: `https://github.com/`, the
/// owner and repository in lowercase, the rest as written. GitHub serves
/// `acme/Experiments` over ssh and https as the `acme/experiments` a policy
/// denies, so no spelling may meet other rules than the repository's.
fn github_form(form: String) -> String {
    // An ssh URL's host is kept as written (not a special scheme to `url`).
    let Some(rest) = (GITHUB_PREFIXES.iter()).find_map(|p| {
        (form.get(..p.len()))
            .filter(|head| head.eq_ignore_ascii_case(p))
            .map(|_| &form[p.len()..])
    }) else {
        return form;
    };
    let mut parts = rest.splitn(3, '/');
    let mut out = String::from("https://github.com");
    for part in [parts.next(), parts.next()].into_iter().flatten() {
        out.push('/');
        out.push_str(&part.to_ascii_lowercase());
    }
    if let Some(tail) = parts.next() {
        out.push('/');
        out.push_str(tail);
    }
    out
}

/// `scheme://host[:port]/path`, without credentials, query, fragment or a
/// trailing `/`; a `file://` URL is its path.
fn url_form(url: &Url) -> String {
    if url.scheme() == "file" {
        return match url.to_file_path() {
            Ok(path) => path_form(&path),
            Err(()) => url.as_str().to_owned(),
        };
    }
    let mut out = format!("{}://{}", url.scheme(), url.host_str().unwrap_or(""));
    if let Some(port) = url.port() {
        out.push_str(&format!(":{port}"));
    }
    out.push_str(url.path().trim_end_matches('/'));
    out
}

/// An absolute path with `.` and `..` resolved, and symbolic links too
/// where the path exists: a folder is judged by where it really is.
pub fn path_form(path: &Path) -> String {
    let resolved = std::fs::canonicalize(path).unwrap_or_else(|_| lexical(path));
    let text = resolved.to_string_lossy().into_owned();
    match text.trim_end_matches('/') {
        "" => "/".to_owned(),
        t => t.to_owned(),
    }
}

fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A pattern in normal form: `github:` is `https://github.com/`, a URL's
/// scheme and host are lowercase, no trailing `/` or `.git`; a relative
/// folder is made absolute against `base` (`None`: not allowed here, the
/// error says why).
pub fn pattern(text: &str, base: Option<&Path>) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("is empty".to_owned());
    }
    let text = match text.strip_prefix("github:") {
        Some(rest) => format!("https://github.com/{rest}"),
        None => text.to_owned(),
    };
    if let Some((scheme, rest)) = text.split_once("://") {
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if scheme == "file" {
            return pattern(path, base);
        }
        let path = path.trim_end_matches('/');
        return Ok(github_form(format!(
            "{}://{}{}",
            scheme.to_ascii_lowercase(),
            authority.to_ascii_lowercase(),
            strip_git(path)
        )));
    }
    let path = Path::new(&text);
    if path.is_absolute() {
        let t = text.trim_end_matches('/');
        return Ok(if t.is_empty() {
            "/".to_owned()
        } else {
            t.to_owned()
        });
    }
    match base {
        Some(base) => {
            let joined = lexical(&base.join(path));
            let text = joined.to_string_lossy().into_owned();
            // A wildcard is kept as written; the folder before it is resolved.
            Ok(match text.find(['*', '?']) {
                Some(_) => text,
                None => path_form(&joined),
            })
        }
        None => Err(
            "is a relative folder, which only a project's skills-policy.toml may use (relative to the project); write an absolute path or a URL"
                .to_owned(),
        ),
    }
}

/// Whether the location `loc` matches the pattern `pat` (both in normal
/// form): with `*` (any run of characters, `/` included) or `?` (one), as
/// a whole; without, the location itself or anything below it (`/` next).
pub fn matches(pat: &str, loc: &str) -> bool {
    if pat.contains(['*', '?']) {
        return crate::names::pattern::matches(pat, loc);
    }
    loc == pat
        || loc
            .strip_prefix(pat)
            .is_some_and(|rest| pat.ends_with('/') || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_source_has_one_location() {
        let base = Path::new("/nonexistent-project");
        for (text, want) in [
            ("https://Skills.Acme.dev/", "https://skills.acme.dev"),
            (
                "https://skills.acme.dev/x/index.json?y=1#z",
                "https://skills.acme.dev/x/index.json",
            ),
            ("oci://GHCR.io/acme/skills:v1", "oci://ghcr.io/acme/skills"),
            (
                "oci://ghcr.io/acme/skills@sha256:0000000000000000000000000000000000000000000000000000000000000000",
                "oci://ghcr.io/acme/skills",
            ),
            (
                "github:acme/skills/pdf@v1",
                "https://github.com/acme/skills",
            ),
            (
                "https://github.com/acme/skills/tree/main/pdf",
                "https://github.com/acme/skills",
            ),
            (
                "https://git.example/team/skills.git#v2",
                "https://git.example/team/skills",
            ),
            (
                "git@git.example:team/skills.git",
                "ssh://git.example/team/skills",
            ),
            (
                "mcp+https://mcp.acme.dev/skills/",
                "mcp+https://mcp.acme.dev/skills",
            ),
            ("vendor/../skills", "/nonexistent-project/skills"),
            ("github:Acme/Skills", "https://github.com/acme/skills"),
            (
                "https://www.github.com/ACME/skills.git",
                "https://github.com/acme/skills",
            ),
            (
                "git@github.com:Acme/Skills.git",
                "https://github.com/acme/skills",
            ),
            (
                "ssh://git@github.com/acme/SKILLS.git#v1",
                "https://github.com/acme/skills",
            ),
            (
                "ssh://git@ssh.github.com:443/acme/skills.git",
                "https://github.com/acme/skills",
            ),
        ] {
            assert_eq!(location(text, base), want, "{text}");
        }
    }

    #[test]
    fn patterns_match_below_a_boundary_or_by_wildcard() {
        let p = |t: &str| pattern(t, None).unwrap();
        assert!(matches(
            &p("https://skills.acme.dev/"),
            "https://skills.acme.dev/.well-known/agent-skills/index.json"
        ));
        assert!(!matches(
            &p("https://skills.acme.dev"),
            "https://skills.acme.dev.evil.example"
        ));
        assert!(matches(
            &p("oci://GHCR.io/acme/*"),
            "oci://ghcr.io/acme/team/skills"
        ));
        assert!(!matches(
            &p("oci://ghcr.io/acme/*"),
            "oci://ghcr.io/acmeevil"
        ));
        assert!(matches(
            &p("github:acme/skills.git"),
            "https://github.com/acme/skills"
        ));
        let base = Path::new("/nonexistent-project");
        for spelling in [
            "github:acme/Experiments",
            "https://github.com/ACME/experiments/tree/main/pdf",
            "git@github.com:acme/experiments.git",
            "ssh://git@GitHub.com/Acme/Experiments",
        ] {
            assert!(
                matches(
                    &p("https://github.com/acme/experiments"),
                    &location(spelling, base)
                ),
                "{spelling}"
            );
        }
        assert!(matches(
            &p("github:ACME/*"),
            "https://github.com/acme/skills"
        ));
        assert!(matches(&p("/srv/skills"), "/srv/skills/pdf"));
        assert!(pattern("vendor/*", None).is_err());
        assert_eq!(
            pattern("./vendor/*", Some(Path::new("/p"))).unwrap(),
            "/p/vendor/*"
        );
    }
}
