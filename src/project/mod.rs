//! The project: the folder holding `skills.toml` (and the lead's
//! `skills.lock`), found like cargo finds `Cargo.toml`: the nearest one
//! walking up from the working directory, unless `--project DIR` says where.

pub mod lock;
pub mod manifest;
pub mod state;
pub mod user_folders;

use std::path::{Path, PathBuf};

use crate::error::{Classify, Exit};

pub use manifest::{Manifest, ManifestError};

pub const MANIFEST_FILE: &str = "skills.toml";
pub const LOCK_FILE: &str = "skills.lock";

/// A manifest whose scope is not the one the person chose
/// (docs/threat-model.md#pull-request-author): a skills.toml
/// found in a project may only place skills in that project.
#[derive(Debug, thiserror::Error)]
pub enum ScopeError {
    #[error(
        "{path} asks for scope `{scope}`, which places skills outside the project, in {where_}; a project's skills.toml cannot choose that: remove `scope` from its [install] table, and run `skillpm {flag} add …` yourself to install for {whom}"
    )]
    NotAsked {
        path: PathBuf,
        scope: &'static str,
        where_: &'static str,
        flag: &'static str,
        whom: &'static str,
    },
    #[error(
        "{path} is skillpm's {chosen}-scope manifest but says scope `{found}`: set `scope = \"{chosen}\"` in its [install] table"
    )]
    Mismatch {
        path: PathBuf,
        chosen: &'static str,
        found: &'static str,
    },
    #[error(
        "no configuration folder for the {scope} scope's manifest: set HOME or XDG_CONFIG_HOME"
    )]
    NoConfigDir { scope: &'static str },
    #[error("cannot create {path}: {source}")]
    Create {
        path: PathBuf,
        source: std::io::Error,
    },
}

crate::classified!(ScopeError);
impl Classify for ScopeError {
    fn exit(&self) -> Exit {
        match self {
            ScopeError::NotAsked { .. } | ScopeError::Mismatch { .. } => Exit::Integrity,
            ScopeError::NoConfigDir { .. } | ScopeError::Create { .. } => Exit::Other,
        }
    }
}

/// skillpm's own project for a scope outside any project (`-g` for the user
/// scope, `--scope admin`): `<config>/skillpm/` and `<config>/skillpm/admin/`
/// hold its skills.toml and skills.lock. `config` is
/// `${XDG_CONFIG_HOME:-~/.config}` (`None` when there is no home folder).
/// The manifest is made on first use from [`manifest::scope_template`],
/// with the agents `agents` names for the project's folder.
pub fn scope_project(
    config: Option<&Path>,
    scope: manifest::InstallScope,
    agents: impl FnOnce(&Path) -> Vec<&'static str>,
) -> Result<Project, ScopeError> {
    let config = config.ok_or(ScopeError::NoConfigDir {
        scope: scope.as_str(),
    })?;
    let root = match scope {
        manifest::InstallScope::Admin => config.join("skillpm").join("admin"),
        _ => config.join("skillpm"),
    };
    let project = Project { root };
    let path = project.manifest_path();
    if !path.is_file() {
        let text = manifest::scope_template(scope, &agents(&project.root));
        std::fs::create_dir_all(&project.root)
            .and_then(|()| crate::fs::write_atomic(&path, text.as_bytes()))
            .map_err(|source| ScopeError::Create {
                path: path.clone(),
                source,
            })?;
    }
    Ok(project)
}

/// Refuses a manifest whose scope is not `chosen` (`None`: the project's
/// own, `repo`). The one check every command that places skills makes.
pub fn check_scope(
    manifest: &Manifest,
    chosen: Option<manifest::InstallScope>,
) -> Result<(), ScopeError> {
    let found = manifest.install().scope;
    let path = manifest.path().to_owned();
    match (chosen, found) {
        (None, manifest::InstallScope::Repo) => Ok(()),
        (None, manifest::InstallScope::User) => Err(ScopeError::NotAsked {
            path,
            scope: "user",
            where_: "your home folder",
            flag: "-g",
            whom: "your user",
        }),
        (None, manifest::InstallScope::Admin) => Err(ScopeError::NotAsked {
            path,
            scope: "admin",
            where_: "system folders",
            flag: "--scope admin",
            whom: "every user (with `-g` for your user only)",
        }),
        (Some(chosen), found) if chosen == found => Ok(()),
        (Some(chosen), found) => Err(ScopeError::Mismatch {
            path,
            chosen: chosen.as_str(),
            found: found.as_str(),
        }),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error(
        "no {MANIFEST_FILE} in {start} or any folder above it; run `skillpm init` to create one, or pass --project DIR"
    )]
    NotFound { start: PathBuf },
    #[error("{dir} has no {MANIFEST_FILE}; run `skillpm init --project {dir}` to create one")]
    NotAProject { dir: PathBuf },
}

crate::classified!(ProjectError => Other);

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
