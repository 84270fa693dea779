//! Walking one skill root, bounded the way Codex bounds it: breadth first,
//! at most `max_depth` folders deep and `max_dirs` folders in all, hidden
//! entries skipped. A folder holding SKILL.md is a skill and is not walked
//! further (its `scripts/` and `references/` are its own business, and a
//! template SKILL.md bundled inside a skill is not a second skill).
//!
//! Symlinked folders are followed when asked (repo, user and admin roots;
//! skillpm's own links point into the store, outside every root), but they
//! count against the same bounds, and a folder reached twice — a loop, or
//! two links to one target — is walked once.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::skill::SKILL_MD;

/// Bounds of one root's walk (docs/design.md#agents: depth 6, 2,000 folders).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanLimits {
    /// Deepest folder read, counting the root's children as depth 1.
    pub max_depth: usize,
    /// Most folders visited in one root, the root included.
    pub max_dirs: usize,
}

impl Default for ScanLimits {
    fn default() -> Self {
        ScanLimits {
            max_depth: 6,
            max_dirs: 2000,
        }
    }
}

/// A skill folder found in a root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScannedSkill {
    /// The folder as agents see it (through any symlink).
    pub path: PathBuf,
    /// Where it really is, when `path` is or passes through a symlink.
    pub link_target: Option<PathBuf>,
}

/// What walking one root found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RootScan {
    pub exists: bool,
    pub skills: Vec<ScannedSkill>,
    /// The folder limit cut the walk short.
    pub truncated: bool,
    /// Folders left unread because they were deeper than the depth limit.
    pub too_deep: usize,
    /// Things that could not be read (reported, never fatal).
    pub problems: Vec<String>,
    /// Symlinks that do not resolve, each with why (skipped, never fatal;
    /// kept apart from `problems` so `doctor`, which names each dangling
    /// link with its fix, reports it once).
    pub dangling: Vec<(PathBuf, String)>,
}

/// Walks `root` for skill folders.
pub fn scan_root(root: &Path, follow_symlinks: bool, limits: ScanLimits) -> RootScan {
    let mut scan = RootScan::default();
    let Ok(root_real) = std::fs::canonicalize(root) else {
        return scan;
    };
    if !root_real.is_dir() {
        return scan;
    }
    scan.exists = true;
    let mut visited: HashSet<PathBuf> = HashSet::from([root_real.clone()]);
    // (path as seen, real path, depth, passes through a symlink)
    let mut queue = VecDeque::from([(root.to_path_buf(), root_real, 0usize, false)]);
    while let Some((dir, real, depth, linked)) = queue.pop_front() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                scan.problems
                    .push(format!("cannot read {}: {e}", dir.display()));
                continue;
            }
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let (child_real, child_linked) = if kind.is_symlink() {
                if !follow_symlinks {
                    continue;
                }
                match std::fs::canonicalize(&path) {
                    Ok(target) if target.is_dir() => (target, true),
                    Ok(_) => continue,
                    Err(e) => {
                        let why = format!(
                            "skipped {}: the symlink does not resolve ({e})",
                            path.display()
                        );
                        scan.dangling.push((path, why));
                        continue;
                    }
                }
            } else if kind.is_dir() {
                (real.join(&name), linked)
            } else {
                continue;
            };
            let child_depth = depth + 1;
            if child_depth > limits.max_depth {
                scan.too_deep += 1;
                continue;
            }
            if visited.contains(&child_real) {
                continue;
            }
            if visited.len() >= limits.max_dirs {
                scan.truncated = true;
                return scan;
            }
            visited.insert(child_real.clone());
            if child_real.join(SKILL_MD).is_file() {
                scan.skills.push(ScannedSkill {
                    path,
                    link_target: child_linked.then_some(child_real),
                });
            } else {
                queue.push_back((path, child_real, child_depth, child_linked));
            }
        }
    }
    scan
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn skill(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(SKILL_MD), "---\nname: x\ndescription: d\n---\n").unwrap();
    }

    fn names(scan: &RootScan, root: &Path) -> Vec<String> {
        scan.skills
            .iter()
            .map(|s| s.path.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn missing_root_is_empty_not_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let scan = scan_root(&tmp.path().join("nope"), true, ScanLimits::default());
        assert!(!scan.exists && scan.skills.is_empty() && scan.problems.is_empty());
        assert!(scan.dangling.is_empty());
    }

    #[test]
    fn finds_skills_breadth_first_and_skips_hidden_and_skill_insides() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        skill(&root.join("b"));
        skill(&root.join("a"));
        skill(&root.join("group/c"));
        skill(&root.join(".hidden/d"));
        skill(&root.join("a/templates/inner"));
        let scan = scan_root(root, true, ScanLimits::default());
        assert_eq!(names(&scan, root), ["a", "b", "group/c"]);
    }

    #[test]
    fn depth_limit_stops_a_deep_tree() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        skill(&root.join("1/2/3/4/5/at-six"));
        skill(&root.join("1/2/3/4/5/6/at-seven"));
        let scan = scan_root(root, true, ScanLimits::default());
        assert_eq!(names(&scan, root), ["1/2/3/4/5/at-six"]);
        assert_eq!(scan.too_deep, 1);
        assert!(!scan.truncated);
    }

    #[test]
    fn folder_limit_truncates() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for i in 0..10 {
            skill(&root.join(format!("s{i}")));
        }
        let limits = ScanLimits {
            max_depth: 6,
            max_dirs: 5,
        };
        let scan = scan_root(root, true, limits);
        // The root counts as one of the five folders.
        assert_eq!(names(&scan, root), ["s0", "s1", "s2", "s3"]);
        assert!(scan.truncated);
    }

    #[test]
    fn symlinked_skills_are_followed_only_when_asked() {
        let tmp = tempfile::tempdir().unwrap();
        let store = tmp.path().join("store/sha256-abc");
        skill(&store);
        let root = tmp.path().join("root");
        std::fs::create_dir(&root).unwrap();
        symlink(&store, root.join("linked")).unwrap();
        let scan = scan_root(&root, true, ScanLimits::default());
        assert_eq!(names(&scan, &root), ["linked"]);
        assert_eq!(
            scan.skills[0].link_target.as_deref(),
            Some(std::fs::canonicalize(&store).unwrap().as_path())
        );
        let scan = scan_root(&root, false, ScanLimits::default());
        assert!(scan.skills.is_empty());
    }

    #[test]
    fn symlink_loops_end_and_broken_links_are_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        std::fs::create_dir_all(root.join("a")).unwrap();
        symlink(&root, root.join("a/loop")).unwrap();
        symlink(tmp.path().join("gone"), root.join("broken")).unwrap();
        skill(&root.join("a/real"));
        let scan = scan_root(&root, true, ScanLimits::default());
        assert_eq!(names(&scan, &root), ["a/real"]);
        assert!(scan.problems.is_empty(), "{:?}", scan.problems);
        assert_eq!(scan.dangling.len(), 1);
        assert_eq!(scan.dangling[0].0, root.join("broken"));
        assert!(scan.dangling[0].1.contains("broken"), "{:?}", scan.dangling);
    }

    #[test]
    fn symlinked_folders_count_against_the_depth_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        skill(&outside.join("2/3/4/5/6/deep"));
        skill(&outside.join("2/shallow"));
        let root = tmp.path().join("root");
        std::fs::create_dir(&root).unwrap();
        symlink(&outside, root.join("1")).unwrap();
        let scan = scan_root(&root, true, ScanLimits::default());
        assert_eq!(names(&scan, &root), ["1/2/shallow"]);
        assert_eq!(scan.too_deep, 1);
    }
}
