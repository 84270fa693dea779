//! Building URLs from names and paths an index supplies.
//!
//! An index is untrusted input: a skill name or a file path in it must never
//! steer a request outside the registry (`../`, an absolute path, a query, a
//! fragment), so each is checked *before* any URL is built from it, and every
//! segment is then percent-encoded by the `url` crate rather than spliced in
//! as text.

use url::Url;

/// Why a relative file path from an index was refused.
pub fn check_relative_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("the path is empty".into());
    }
    if path.starts_with('/') {
        return Err("the path is absolute (starts with `/`)".into());
    }
    if path.len() > 1024 {
        return Err("the path is longer than 1024 bytes".into());
    }
    for segment in path.split('/') {
        match segment {
            "" => return Err("the path has an empty segment (`//` or a trailing `/`)".into()),
            "." | ".." => return Err(format!("the path has a `{segment}` segment")),
            _ => {}
        }
        if let Some(c) = segment.chars().find(|c| is_forbidden_char(*c)) {
            return Err(format!(
                "the path contains the character {c:?}, which is not allowed in a skill file path"
            ));
        }
    }
    Ok(())
}

/// Characters refused in file paths: control characters, the Windows path
/// separator and drive marker (docs/design.md#unpacking), and those the discovery RFC
/// excludes because they change a URL's meaning.
fn is_forbidden_char(c: char) -> bool {
    c.is_control() || matches!(c, '\\' | ':' | '?' | '#' | '[' | ']')
}

/// The folder holding an index (`…/agent-skills/` for `…/agent-skills/index.json`).
pub fn index_dir(index_url: &Url) -> Url {
    let mut dir = index_url.clone();
    dir.set_query(None);
    dir.set_fragment(None);
    if let Ok(mut segments) = dir.path_segments_mut() {
        segments.pop();
        segments.push("");
    }
    dir
}

/// `<dir>/<name>/<path…>` with every segment percent-encoded. `name` must
/// already satisfy the skill name rule and `path` [`check_relative_path`].
pub fn file_url(dir: &Url, name: &str, path: &str) -> Url {
    let mut url = dir.clone();
    if let Ok(mut segments) = url.path_segments_mut() {
        segments.pop_if_empty().push(name).extend(path.split('/'));
    }
    url
}

/// Whether an index served over `from` may point at an artifact over `to`:
/// never from the network to a local file, never from https down to http.
pub fn scheme_allowed(from: &str, to: &str) -> bool {
    matches!(
        (from, to),
        ("https", "https") | ("http", "http" | "https") | ("file", "file" | "http" | "https")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_and_url_metacharacters_are_refused() {
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../b",
            "a/./b",
            "a//b",
            "a/",
            "C:/x",
            "a\\b",
            "a?b",
            "a#b",
            "a\nb",
            "[x]",
        ] {
            assert!(check_relative_path(bad).is_err(), "{bad:?} accepted");
        }
        for good in [
            "SKILL.md",
            "scripts/run.sh",
            "assets/a b.txt",
            "ré/sumé.md",
            "100%.md",
        ] {
            assert!(check_relative_path(good).is_ok(), "{good:?} refused");
        }
    }

    #[test]
    fn file_urls_are_built_segment_by_segment() {
        let index = Url::parse("https://h.example/.well-known/skills/index.json?x=1").unwrap();
        let dir = index_dir(&index);
        assert_eq!(dir.as_str(), "https://h.example/.well-known/skills/");
        let url = file_url(&dir, "pdf", "assets/a b%.txt");
        assert_eq!(
            url.as_str(),
            "https://h.example/.well-known/skills/pdf/assets/a%20b%25.txt"
        );
    }

    #[test]
    fn scheme_downgrades_are_refused() {
        assert!(!scheme_allowed("https", "http"));
        assert!(!scheme_allowed("https", "file"));
        assert!(!scheme_allowed("http", "file"));
        assert!(scheme_allowed("file", "https"));
        assert!(scheme_allowed("http", "https"));
    }
}
