//! Discovery: every skill every agent can see from a working directory,
//! ranked repo > user > system > admin (nearer repo folders first), with
//! duplicates reported instead of silently shadowed. Lenient by design: a
//! broken skill is listed as invalid and takes no part in the ranking; it
//! never stops the rest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::scan::{ScanLimits, scan_root};
use super::{Agent, Env, Root, Scope, all_roots};
use crate::skill::{SkillCheck, check_skill_dir};

/// One skill folder found in a root, with the strict check's verdict.
#[derive(Debug, Clone)]
pub struct FoundSkill {
    /// The frontmatter name, or the folder name when SKILL.md is unreadable.
    pub name: String,
    pub scope: Scope,
    pub agent: Agent,
    /// The skill folder as agents see it.
    pub path: PathBuf,
    /// The real folder, when reached through a symlink.
    pub link_target: Option<PathBuf>,
    pub check: SkillCheck,
    /// The path of the skill of the same name that wins over this one.
    pub shadowed_by: Option<PathBuf>,
}

impl FoundSkill {
    /// Loadable, as agents load skills: a rule `check` reports that does not
    /// stop loading (a name that differs from its folder, an agent-specific
    /// field) does not hide the skill.
    pub fn is_valid(&self) -> bool {
        self.check.is_loadable()
    }

    /// Valid and not shadowed: the one an agent loads by this name.
    pub fn is_winner(&self) -> bool {
        self.is_valid() && self.shadowed_by.is_none()
    }
}

/// Several skill folders with one name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub name: String,
    /// The folder that wins (`None` when every copy is invalid).
    pub winner: Option<PathBuf>,
    /// Every folder with this name, in precedence order.
    pub paths: Vec<PathBuf>,
    /// All copies resolve to the same real folder, or hold the same tree
    /// (one skill placed into several agent folders, as `install` does):
    /// harmless.
    pub same_target: bool,
}

/// What one root held.
#[derive(Debug, Clone)]
pub struct RootReport {
    pub root: Root,
    pub exists: bool,
    pub skills: usize,
    pub truncated: bool,
}

#[derive(Debug, Clone)]
pub struct Discovery {
    pub project: PathBuf,
    pub roots: Vec<RootReport>,
    /// Every skill folder found, in precedence order.
    pub skills: Vec<FoundSkill>,
    pub duplicates: Vec<Duplicate>,
    /// Scan problems: unreadable folders, limits reached.
    pub warnings: Vec<String>,
    /// Symlinks in the roots that do not resolve, each with the warning
    /// that names it (skipped by the scan, as agents skip them).
    pub dangling: Vec<(PathBuf, String)>,
}

impl Discovery {
    /// Every warning of the scan, the dangling links' included.
    pub fn all_warnings(&self) -> impl Iterator<Item = &String> {
        (self.warnings.iter()).chain(self.dangling.iter().map(|(_, why)| why))
    }

    /// The skill an agent loads for `name`: the first valid one.
    pub fn winner(&self, name: &str) -> Option<&FoundSkill> {
        self.skills.iter().find(|s| s.name == name && s.is_winner())
    }

    /// Names of loadable skills, sorted.
    pub fn available_names(&self) -> Vec<&str> {
        let names: BTreeSet<&str> = self
            .skills
            .iter()
            .filter(|s| s.is_winner())
            .map(|s| s.name.as_str())
            .collect();
        names.into_iter().collect()
    }
}

/// Scans every root for `project` seen from `cwd`.
pub fn discover(project: &Path, cwd: &Path, env: &Env, limits: ScanLimits) -> Discovery {
    let mut skills = Vec::new();
    let mut roots = Vec::new();
    let mut warnings = Vec::new();
    let mut dangling = Vec::new();
    for root in all_roots(project, cwd, env) {
        // System skills are written by the agent itself: no links to follow.
        let follow = root.scope != Scope::System;
        let scan = scan_root(&root.path, follow, limits);
        if scan.truncated {
            warnings.push(format!(
                "stopped scanning {} after {} folders; skills beyond were not seen",
                root.path.display(),
                limits.max_dirs
            ));
        }
        if scan.too_deep > 0 {
            warnings.push(format!(
                "{} folder(s) in {} are deeper than {} levels and were not scanned",
                scan.too_deep,
                root.path.display(),
                limits.max_depth
            ));
        }
        warnings.extend(scan.problems.iter().cloned());
        dangling.extend(scan.dangling.iter().cloned());
        for found in &scan.skills {
            let check = check_skill_dir(&found.path, None);
            skills.push(FoundSkill {
                name: check.display_name(),
                scope: root.scope,
                agent: root.agent,
                path: found.path.clone(),
                link_target: found.link_target.clone(),
                check,
                shadowed_by: None,
            });
        }
        roots.push(RootReport {
            exists: scan.exists,
            skills: scan.skills.len(),
            truncated: scan.truncated,
            root,
        });
    }
    let duplicates = rank(&mut skills);
    Discovery {
        project: project.to_owned(),
        roots,
        skills,
        duplicates,
        warnings,
        dangling,
    }
}

/// Marks every valid skill that a valid one before it outranks, and lists
/// the names found more than once.
fn rank(skills: &mut [FoundSkill]) -> Vec<Duplicate> {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in skills.iter().enumerate() {
        by_name.entry(s.name.clone()).or_default().push(i);
    }
    let mut duplicates = Vec::new();
    for (name, indices) in by_name {
        let winner = indices.iter().copied().find(|&i| skills[i].is_valid());
        if let Some(w) = winner {
            let winner_path = skills[w].path.clone();
            for &i in &indices {
                if i != w && skills[i].is_valid() {
                    skills[i].shadowed_by = Some(winner_path.clone());
                }
            }
        }
        if indices.len() > 1 {
            let real = |s: &FoundSkill| {
                s.link_target
                    .clone()
                    .or_else(|| std::fs::canonicalize(&s.path).ok())
            };
            let first = real(&skills[indices[0]]);
            let same_folder = first.is_some() && indices.iter().all(|&i| real(&skills[i]) == first);
            // Real folders placed from one tree (`link-mode = "auto"` or
            // copies in several agent folders) hold the same content too.
            let tree = |s: &FoundSkill| crate::digest::tree_digest(&s.path).ok();
            let same_target = same_folder || {
                let first_tree = tree(&skills[indices[0]]);
                first_tree.is_some() && indices.iter().all(|&i| tree(&skills[i]) == first_tree)
            };
            duplicates.push(Duplicate {
                name,
                winner: winner.map(|w| skills[w].path.clone()),
                paths: indices.iter().map(|&i| skills[i].path.clone()).collect(),
                same_target,
            });
        }
    }
    duplicates
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn skill(dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n"),
        )
        .unwrap();
    }

    #[test]
    fn precedence_shadowing_and_invalid_skills() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("proj");
        let cwd = project.join("sub");
        std::fs::create_dir_all(&cwd).unwrap();
        let env = Env::with_home(&home);
        // Same name in a nearer repo folder, the project root and the user scope.
        skill(&cwd.join(".claude/skills/pdf"), "pdf");
        skill(&project.join(".agents/skills/pdf"), "pdf");
        skill(&home.join(".agents/skills/pdf"), "pdf");
        // The user's copy has other content (copies holding one tree are
        // harmless duplicates).
        std::fs::write(home.join(".agents/skills/pdf/notes.md"), "mine\n").unwrap();
        // An invalid copy that comes first must not win or shadow.
        skill(&cwd.join(".agents/skills/pdf"), "PDF");
        let d = discover(&project, &cwd, &env, ScanLimits::default());
        let pdfs: Vec<&FoundSkill> = d
            .skills
            .iter()
            .filter(|s| s.path.ends_with("pdf"))
            .collect();
        assert_eq!(pdfs.len(), 4);
        let winner = d.winner("pdf").unwrap();
        assert_eq!(winner.path, cwd.join(".claude/skills/pdf"));
        assert_eq!(winner.scope, Scope::Repo);
        let user = pdfs.iter().find(|s| s.scope == Scope::User).unwrap();
        assert_eq!(user.shadowed_by.as_deref(), Some(winner.path.as_path()));
        let invalid = pdfs.iter().find(|s| !s.is_valid()).unwrap();
        assert_eq!(invalid.name, "PDF");
        assert_eq!(invalid.shadowed_by, None);
        assert_eq!(d.duplicates.len(), 1);
        assert_eq!(d.duplicates[0].name, "pdf");
        assert_eq!(d.duplicates[0].paths.len(), 3);
        assert!(!d.duplicates[0].same_target);
        assert_eq!(d.available_names(), ["pdf"]);
    }
}
