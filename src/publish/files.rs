//! A skill's files read into memory once, so the tree digest, the archives
//! and the served copies are all made from the very same bytes.
//!
//! Every path is checked against the rules every reader applies (docs/design.md#unpacking
//! strict unpacking, the discovery RFC's `files` rules, OpenCode's and the
//! vercel-labs reader's path checks): a publish must never produce a site that
//! some client refuses or unpacks differently on another platform.

use std::path::Path;

use super::PublishError;
use crate::digest::{self, Digest};

/// One regular file of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// Relative path with `/` separators.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// All files of one skill, sorted by path in byte order (the tree digest's order).
#[derive(Debug, Clone)]
pub struct SkillFiles {
    pub tree: Digest,
    pub files: Vec<SkillFile>,
    /// What [`LeftOut`] kept out of the folder, in walk order (a folder
    /// once, not each file in it).
    pub left_out: Vec<LeftOutEntry>,
}

/// A file or folder of a skill folder that is not published, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LeftOutEntry {
    /// Relative path with `/` separators (a folder ends in `/`).
    pub path: String,
    pub why: String,
    /// Left out as a secret-bearing file ([`secret_bearing`]), not by the
    /// author's ignore files: `publish` says so even without `--dry-run`.
    pub secret: bool,
}

impl SkillFiles {
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
    }

    /// Paths in the order the `files` lists use: `SKILL.md` first (the RFC
    /// asks for it), then the rest in byte order.
    pub fn listing(&self) -> Vec<String> {
        let mut paths: Vec<String> = self.files.iter().map(|f| f.path.clone()).collect();
        if let Some(pos) = paths.iter().position(|p| p == "SKILL.md") {
            let skill_md = paths.remove(pos);
            paths.insert(0, skill_md);
        }
        paths
    }
}

/// Names never published: version-control folders and operating-system
/// debris (docs/audit.md, "Publish").
pub const ALWAYS_LEFT_OUT: &[&str] = &[".git", ".hg", ".svn", ".DS_Store", "Thumbs.db"];

/// The ignore files of a skill folder that `publish` honours, in order
/// (a later one's `!pattern` can take back an earlier one's pattern).
pub const IGNORE_FILES: &[&str] = &[".gitignore", ".skillignore"];

/// The ignore file whose `!NAME` line, naming a secret-bearing file
/// exactly, is the one way to publish it.
pub const INCLUDE_FILE: &str = ".skillignore";

/// `.env.*` files that document variables rather than hold them: they are
/// published (and the secret check still reads every value in them).
pub const ENV_TEMPLATES: &[&str] = &["example", "sample", "template", "dist", "defaults"];

/// Whether the file at `rel` (`/`-separated; `read` gives its first bytes
/// when the name alone cannot tell) is a kind that holds secrets, and
/// which (docs/audit.md, "Publish"): left out unless included by name.
pub fn secret_bearing(rel: &str, read: impl FnOnce() -> Vec<u8>) -> Option<&'static str> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    if lower == ".env" {
        return Some("an environment file (.env) holds secrets");
    }
    if let Some(variant) = lower.strip_prefix(".env.") {
        return (!ENV_TEMPLATES.contains(&variant))
            .then_some("an environment file (.env.*) holds secrets");
    }
    if matches!(
        lower.as_str(),
        "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | "id_ecdsa_sk" | "id_ed25519_sk"
    ) {
        return Some("an SSH private key");
    }
    if matches!(ext, "p12" | "pfx" | "jks" | "keystore" | "ppk") {
        return Some("a key store (private keys)");
    }
    if matches!(
        lower.as_str(),
        ".netrc" | "_netrc" | ".git-credentials" | ".htpasswd"
    ) || rel.to_ascii_lowercase().ends_with(".aws/credentials")
    {
        return Some("a credentials file");
    }
    // Kinds whose content decides: what to look for, and what it means.
    let (needles, kind): (&[&str], _) = match (lower.as_str(), ext) {
        (_, "pem" | "key") => (&["private key-----", "secret key"], "a private key"),
        (".npmrc", _) => (
            &["_authtoken", "_auth", "_password"],
            "an npm configuration holding a token",
        ),
        (".pypirc", _) => (&["password"], "a PyPI configuration holding a password"),
        _ => return None,
    };
    let text = String::from_utf8_lossy(&read()).to_ascii_lowercase();
    needles.iter().any(|n| text.contains(n)).then_some(kind)
}

/// The first bytes of the regular file `path` (empty for anything else):
/// enough to see what a key or configuration file holds.
fn head_of(path: &Path) -> Vec<u8> {
    use std::io::Read;
    const HEAD: u64 = 64 * 1024;
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    let mut bytes = Vec::new();
    if regular && let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(HEAD).read_to_end(&mut bytes);
    }
    bytes
}

/// What `publish` leaves out of the skill folder `dir`: [`ALWAYS_LEFT_OUT`]
/// and what the `.gitignore` and `.skillignore` of the skill folder, and of
/// the folder of skills being published, match (gitignore rules).
pub struct LeftOut {
    dir: std::path::PathBuf,
    /// Outermost first: the published folder's rules, then the skill's.
    rules: Vec<ignore::gitignore::Gitignore>,
}

fn ignore_rules(folder: &Path) -> Result<ignore::gitignore::Gitignore, PublishError> {
    let mut builder = ignore::gitignore::GitignoreBuilder::new(folder);
    for name in IGNORE_FILES {
        let path = folder.join(name);
        if path.is_file()
            && let Some(e) = builder.add(&path)
        {
            return Err(PublishError::IgnoreRules {
                path,
                message: e.to_string(),
            });
        }
    }
    builder.build().map_err(|e| PublishError::IgnoreRules {
        path: folder.join(".skillignore"),
        message: e.to_string(),
    })
}

impl LeftOut {
    /// The rules for the skill folder `dir`, published from `outer` (the
    /// folder of skills given to `publish`, or `dir` itself).
    pub fn of(dir: &Path, outer: &Path) -> Result<LeftOut, PublishError> {
        let mut rules = Vec::new();
        if outer != dir && dir.starts_with(outer) {
            rules.push(ignore_rules(outer)?);
        }
        rules.push(ignore_rules(dir)?);
        Ok(LeftOut {
            dir: dir.to_owned(),
            rules,
        })
    }

    /// Why the entry at `rel` (`/`-separated; a folder when `is_dir`) is
    /// left out, and whether as secret-bearing; `None` when it is
    /// published (`SKILL.md` at the root always is).
    fn reason(&self, rel: &str, is_dir: bool) -> Option<(String, bool)> {
        if rel == "SKILL.md" {
            return None;
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if ALWAYS_LEFT_OUT.contains(&name) {
            return Some((
                "version control or system file, never published".into(),
                false,
            ));
        }
        let path = self.dir.join(rel);
        // The innermost rule that matches decides (a skill's `!pattern`
        // takes back its folder's pattern).
        let mut ignored = None;
        for rules in &self.rules {
            match rules.matched_path_or_any_parents(&path, is_dir) {
                ignore::Match::Ignore(glob) => {
                    ignored = Some(format!(
                        "matches `{}` in {}",
                        glob.original(),
                        glob.from().and_then(Path::file_name).map_or_else(
                            || "an ignore file".into(),
                            |f| f.to_string_lossy().into_owned()
                        )
                    ));
                }
                ignore::Match::Whitelist(_) => ignored = None,
                ignore::Match::None => {}
            }
        }
        if ignored.is_some() || is_dir {
            return ignored.map(|why| (why, false));
        }
        let kind = secret_bearing(rel, || head_of(&path))?;
        (!self.included_by_name(&path, name)).then(|| {
            let why =
                format!("{kind}; to publish it anyway, add the line `!{name}` to {INCLUDE_FILE}");
            (why, true)
        })
    }

    /// Whether a `.skillignore` takes the file at `path` back with a `!`
    /// line naming it exactly (no wildcard): the one way to publish a
    /// secret-bearing file.
    fn included_by_name(&self, path: &Path, name: &str) -> bool {
        self.rules.iter().any(|rules| {
            let ignore::Match::Whitelist(glob) = rules.matched(path, false) else {
                return false;
            };
            let from_include = glob
                .from()
                .and_then(Path::file_name)
                .is_some_and(|f| f == INCLUDE_FILE);
            let named = glob
                .original()
                .trim_start_matches('!')
                .trim_start_matches('/');
            from_include
                && !named.contains(['*', '?', '['])
                && named.rsplit('/').next() == Some(name)
        })
    }
}

/// Reads the skill folder `dir` (published from the folder `outer`),
/// without what [`LeftOut`] leaves out. Symlinks and special files are
/// refused (by `digest::hash_tree_where`), every path must be portable, and
/// a file that changes between hashing and reading stops the publish.
pub fn load_skill_files(dir: &Path, outer: &Path, skill: &str) -> Result<SkillFiles, PublishError> {
    let rules = LeftOut::of(dir, outer)?;
    let left_out = std::sync::Mutex::new(Vec::new());
    let keep = |rel: &str, is_dir: bool| match rules.reason(rel, is_dir) {
        Some((why, secret)) => {
            let path = if is_dir {
                format!("{rel}/")
            } else {
                rel.to_owned()
            };
            if let Ok(mut list) = left_out.lock() {
                list.push(LeftOutEntry { path, why, secret });
            }
            false
        }
        None => true,
    };
    let tree = digest::hash_tree_where(dir, &keep).map_err(|source| PublishError::Tree {
        skill: skill.to_owned(),
        source,
    })?;
    let mut left_out = left_out.into_inner().unwrap_or_default();
    left_out.sort_by(|a, b| a.path.cmp(&b.path));
    let mut names = crate::names::NameSet::default();
    let mut files = Vec::with_capacity(tree.files.len());
    for entry in &tree.files {
        // The rules every reader applies (`names::check_published`), and no
        // two paths that collide on macOS and Windows (`Docs/a`, `docs/b`).
        crate::names::check_published(&entry.path)
            .and_then(|()| names.add_file(&entry.path))
            .map_err(|rule| PublishError::UnportablePath {
                skill: skill.to_owned(),
                path: entry.path.clone(),
                reason: rule.to_string(),
            })?;
        let path = dir.join(&entry.path);
        let bytes = std::fs::read(&path).map_err(PublishError::io("cannot read", &path))?;
        if Digest::of_bytes(&bytes) != entry.digest {
            return Err(PublishError::Changed { path });
        }
        files.push(SkillFile {
            path: entry.path.clone(),
            bytes,
            executable: entry.executable,
        });
    }
    Ok(SkillFiles {
        tree: tree.digest,
        files,
        left_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_bearing_files_by_name_and_by_content() {
        let nothing = || Vec::new();
        for published in [
            "README.md",
            ".env.example",
            "config/.env.sample",
            "certs/ca.pem",
            ".npmrc",
            "id_ed25519.pub",
            "environment.md",
        ] {
            let cert = || b"-----BEGIN CERTIFICATE-----\n".to_vec();
            assert_eq!(secret_bearing(published, cert), None, "{published}");
        }
        for (left_out, kind) in [
            (".env", "environment"),
            ("a/b/.env.local", "environment"),
            (".env.production", "environment"),
            ("keys/id_rsa", "SSH"),
            ("signing.p12", "key store"),
            ("cert.PFX", "key store"),
            (".netrc", "credentials"),
            ("home/.aws/credentials", "credentials"),
        ] {
            let kind_found = secret_bearing(left_out, nothing).unwrap_or_default();
            assert!(kind_found.contains(kind), "{left_out}: {kind_found}");
        }
        let key = || b"-----BEGIN EC PRIVATE KEY-----\nMHc\n".to_vec();
        assert_eq!(secret_bearing("tls/server.key", key), Some("a private key"));
        assert_eq!(secret_bearing("tls/server.pem", key), Some("a private key"));
        let npmrc = || b"//registry.npmjs.org/:_authToken=npm_x\n".to_vec();
        assert!(secret_bearing(".npmrc", npmrc).is_some());
        let pypirc = || b"[pypi]\nusername = __token__\npassword = pypi-x\n".to_vec();
        assert!(secret_bearing(".pypirc", pypirc).is_some());
    }

    #[test]
    fn listing_puts_skill_md_first() {
        let file = |p: &str| SkillFile {
            path: p.into(),
            bytes: Vec::new(),
            executable: false,
        };
        let files = SkillFiles {
            tree: Digest::of_bytes(b""),
            files: vec![file("LICENSE"), file("SKILL.md"), file("assets/x")],
            left_out: Vec::new(),
        };
        assert_eq!(files.listing(), ["SKILL.md", "LICENSE", "assets/x"]);
    }
}
