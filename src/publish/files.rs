//! A skill's files read into memory once, so the tree digest, the archives
//! and the served copies are all made from the very same bytes.
//!
//! Every path is checked against the rules every reader applies (docs/design.md#unpacking
//! strict unpacking, the discovery RFC's `files` rules, OpenCode's and the
//! vercel-labs reader's path checks): a publish must never produce a site that
//! some client refuses or unpacks differently on another platform.

use std::collections::BTreeMap;
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

    /// Whether the entry at `rel` (`/`-separated; a folder when `is_dir`)
    /// is left out. `SKILL.md` at the root never is.
    pub fn excludes(&self, rel: &str, is_dir: bool) -> bool {
        if rel == "SKILL.md" {
            return false;
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if ALWAYS_LEFT_OUT.contains(&name) {
            return true;
        }
        let path = self.dir.join(rel);
        // The innermost rule that matches decides (a skill's `!pattern`
        // takes back its folder's pattern).
        let mut ignored = false;
        for rules in &self.rules {
            let m = rules.matched_path_or_any_parents(&path, is_dir);
            if m.is_ignore() {
                ignored = true;
            } else if m.is_whitelist() {
                ignored = false;
            }
        }
        ignored
    }
}

/// Reads the skill folder `dir` (published from the folder `outer`),
/// without what [`LeftOut`] leaves out. Symlinks and special files are
/// refused (by `digest::hash_tree_where`), every path must be portable, and
/// a file that changes between hashing and reading stops the publish.
pub fn load_skill_files(dir: &Path, outer: &Path, skill: &str) -> Result<SkillFiles, PublishError> {
    let left_out = LeftOut::of(dir, outer)?;
    let tree = digest::hash_tree_where(dir, &|rel, is_dir| !left_out.excludes(rel, is_dir))
        .map_err(|source| PublishError::Tree {
            skill: skill.to_owned(),
            source,
        })?;
    let mut folded: BTreeMap<String, String> = BTreeMap::new();
    let mut files = Vec::with_capacity(tree.files.len());
    for entry in &tree.files {
        check_portable_path(&entry.path).map_err(|reason| PublishError::UnportablePath {
            skill: skill.to_owned(),
            path: entry.path.clone(),
            reason,
        })?;
        // The file and each folder above it: `Docs/a` and `docs/b` also collide.
        for (end, _) in entry
            .path
            .match_indices('/')
            .chain([(entry.path.len(), "")])
        {
            let name = &entry.path[..end];
            let previous = folded.insert(name.to_lowercase(), name.to_owned());
            if let Some(other) = previous.filter(|other| other != name) {
                return Err(PublishError::UnportablePath {
                    skill: skill.to_owned(),
                    path: entry.path.clone(),
                    reason: format!(
                        "differs from `{other}` only in letter case (they collide on macOS and Windows)"
                    ),
                });
            }
        }
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
    })
}

/// Why `path` (relative, `/`-separated) cannot be published, if it cannot.
///
/// Allowed: printable ASCII (the RFC's rule for `files` entries) minus the
/// characters some reader or platform treats specially: `\ ? # [ ]` (RFC),
/// `%` (percent-decoded by servers and OpenCode), `: * " < > |` (invalid on
/// Windows); no empty, `.` or `..` segment; no Windows reserved device name;
/// no segment ending in a dot or a space.
pub fn check_portable_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("has an empty name".into());
    }
    for c in path.chars() {
        if !(' '..='~').contains(&c) {
            return Err(format!(
                "contains {}, but published paths must be printable ASCII (Agent Skills Discovery RFC)",
                describe_char(c)
            ));
        }
        if matches!(
            c,
            '\\' | '?' | '#' | '[' | ']' | '%' | ':' | '*' | '"' | '<' | '>' | '|'
        ) {
            return Err(format!(
                "contains `{c}`, which URLs or Windows treat specially"
            ));
        }
    }
    if !fits_ustar(path) {
        return Err(format!(
            "is too long ({} bytes) for a portable tar archive: at most 100 bytes after a folder \
             boundary that leaves at most 155 before it",
            path.len()
        ));
    }
    for segment in path.split('/') {
        match segment {
            "" => return Err("has an empty path segment".into()),
            "." | ".." => return Err(format!("has a `{segment}` path segment")),
            _ => {}
        }
        if segment.ends_with('.') || segment.ends_with(' ') {
            return Err(format!(
                "has the segment `{segment}` ending in a dot or space, which Windows drops"
            ));
        }
        if is_windows_reserved(segment) {
            return Err(format!("uses the Windows reserved device name `{segment}`"));
        }
    }
    Ok(())
}

/// Whether a ustar header can hold `path`: whole in `name` (100 bytes), or
/// split at a `/` into `prefix` (155) and `name` (100), the split `tar` makes.
fn fits_ustar(path: &str) -> bool {
    if path.len() <= 100 {
        return true;
    }
    let head = &path[..path.len().min(156)];
    match head.rfind('/') {
        Some(split) => {
            let name = &path[split + 1..];
            !name.is_empty() && name.len() <= 100
        }
        None => false,
    }
}

fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("the control character U+{:04X}", c as u32)
    } else {
        format!("`{c}` (U+{:04X})", c as u32)
    }
}

/// CON, PRN, AUX, NUL, COM1–9, LPT1–9 in any case and with any extension.
fn is_windows_reserved(segment: &str) -> bool {
    let stem = segment
        .split('.')
        .next()
        .unwrap_or(segment)
        .to_ascii_uppercase();
    let stem = stem.trim_end();
    matches!(stem, "CON" | "PRN" | "AUX" | "NUL")
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_paths_pass() {
        for ok in [
            "SKILL.md",
            "scripts/fill form.py",
            "assets/logo-v2.svg",
            ".gitignore",
            "references/a/b/c.md",
            "console.md",
            "com0.txt",
            &format!("{}/{}", "d".repeat(155), "f".repeat(100)),
        ] {
            assert_eq!(check_portable_path(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn unportable_paths_are_refused_with_a_reason() {
        for (bad, why) in [
            ("a\\b", "`\\`"),
            ("notes#1.md", "`#`"),
            ("100%.md", "`%`"),
            ("c:x", "`:`"),
            ("résumé.md", "printable ASCII"),
            ("tab\there", "control character U+0009"),
            ("a//b", "empty path segment"),
            ("a/../b", "`..`"),
            ("dir./x", "ending in a dot"),
            ("trailing ", "ending in a dot or space"),
            ("assets/CON.txt", "reserved device name"),
            ("lpt9", "reserved device name"),
            ("Aux.tar.gz", "reserved device name"),
            (&"x".repeat(101), "too long"),
            (&format!("{}/{}", "d".repeat(156), "f"), "too long"),
            (
                &format!("{}/{}", "d".repeat(10), "f".repeat(101)),
                "too long",
            ),
        ] {
            let err = check_portable_path(bad).expect_err(bad);
            assert!(err.contains(why), "{bad}: {err}");
        }
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
        };
        assert_eq!(files.listing(), ["SKILL.md", "LICENSE", "assets/x"]);
    }
}
