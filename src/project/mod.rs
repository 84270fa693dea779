//! The project: the folder holding `skills.toml` (and the lead's
//! `skills.lock`), found like cargo finds `Cargo.toml`: the nearest one
//! walking up from the working directory, unless `--project DIR` says where.

pub mod lock;
pub mod manifest;
pub mod state;

use std::path::{Path, PathBuf};

use crate::error::{Classify, Exit};

pub use manifest::{Manifest, ManifestError};

pub const MANIFEST_FILE: &str = "skills.toml";
pub const LOCK_FILE: &str = "skills.lock";

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error(
        "no {MANIFEST_FILE} in {start} or any folder above it; run `skillpm init` to create one, or pass --project DIR"
    )]
    NotFound { start: PathBuf },
    #[error("{dir} has no {MANIFEST_FILE}; run `skillpm init --project {dir}` to create one")]
    NotAProject { dir: PathBuf },
}

crate::classified!(ProjectError);
impl Classify for ProjectError {
    fn exit(&self) -> Exit {
        Exit::Other
    }
}

/// A project folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    pub fn manifest_path(&self) -> PathBuf {
        self.root.join(MANIFEST_FILE)
    }

    pub fn lock_path(&self) -> PathBuf {
        self.root.join(LOCK_FILE)
    }

    pub fn load_manifest(&self) -> Result<Manifest, ManifestError> {
        Manifest::load(&self.manifest_path())
    }
}

/// The project for a command run in `cwd`, with `--project` as `override_dir`
/// (relative to `cwd`).
pub fn find_project(cwd: &Path, override_dir: Option<&Path>) -> Result<Project, ProjectError> {
    if let Some(dir) = override_dir {
        let dir = cwd.join(dir);
        if dir.join(MANIFEST_FILE).is_file() {
            return Ok(Project { root: dir });
        }
        return Err(ProjectError::NotAProject { dir });
    }
    manifest_dir(cwd)
        .map(|dir| Project {
            root: dir.to_owned(),
        })
        .ok_or_else(|| ProjectError::NotFound {
            start: cwd.to_owned(),
        })
}

/// The nearest ancestor of `cwd` (itself included) holding `skills.toml`:
/// the one walk up every command shares.
fn manifest_dir(cwd: &Path) -> Option<&Path> {
    cwd.ancestors()
        .find(|dir| dir.join(MANIFEST_FILE).is_file())
}

/// The folder a command that needs no manifest works on (discovery,
/// `agents`, `import`): the project when there is one, else the nearest
/// ancestor holding `.git`, else `cwd` itself.
pub fn find_project_root(cwd: &Path) -> PathBuf {
    manifest_dir(cwd)
        .or_else(|| cwd.ancestors().find(|d| d.join(".git").exists()))
        .unwrap_or(cwd)
        .to_owned()
}

/// The folder `skillpm init` writes into: `--project DIR` or `cwd`.
pub fn init_dir(cwd: &Path, override_dir: Option<&Path>) -> PathBuf {
    match override_dir {
        Some(dir) => cwd.join(dir),
        None => cwd.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_manifest_wins_and_override_is_exact() {
        let dir = tempfile::tempdir().unwrap();
        let outer = dir.path();
        let inner = outer.join("a/b");
        std::fs::create_dir_all(inner.join("c")).unwrap();
        std::fs::write(outer.join(MANIFEST_FILE), "").unwrap();
        assert_eq!(find_project(&inner.join("c"), None).unwrap().root, outer);
        std::fs::write(inner.join(MANIFEST_FILE), "").unwrap();
        assert_eq!(find_project(&inner.join("c"), None).unwrap().root, inner);
        assert!(matches!(
            find_project(outer, Some(Path::new("a"))),
            Err(ProjectError::NotAProject { .. })
        ));
        assert_eq!(
            find_project(outer, Some(Path::new("a/b"))).unwrap().root,
            inner
        );
    }

    #[test]
    fn project_root_prefers_skills_toml_over_git() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        let inner = top.join("inner");
        let deep = inner.join("src/deep");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(find_project_root(&deep), deep);
        std::fs::create_dir(inner.join(".git")).unwrap();
        assert_eq!(find_project_root(&deep), inner);
        std::fs::write(top.join("skills.toml"), "").unwrap();
        assert_eq!(find_project_root(&deep), top);
    }
}
