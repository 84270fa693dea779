//! The roots of `cache gc`: the project lock files (`skills.lock`) this cache
//! has served. Every install registers its lock; gc keeps whatever a lock
//! that still exists refers to, and forgets locks whose file is gone.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Store, StoreError, io_error};
use crate::digest::Digest;
use crate::fs::HeldLock;

const PROJECTS_FILE: &str = "projects.json";

/// `state/projects.json`, versioned so its shape can change.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Registry {
    version: u32,
    locks: BTreeSet<PathBuf>,
}

/// What one project lock keeps alive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockRefs {
    /// Tree digests (`tree`, and `approved` when it differs): store entries.
    pub trees: BTreeSet<Digest>,
    /// Artifact digests: downloads.
    pub artifacts: BTreeSet<Digest>,
}

/// The few fields of `skills.lock` gc needs; everything else is ignored, so
/// gc keeps working as the lock format grows.
#[derive(Debug, Deserialize)]
struct MinimalLock {
    #[serde(default)]
    skill: Vec<MinimalSkill>,
}

#[derive(Debug, Deserialize)]
struct MinimalSkill {
    tree: Option<Digest>,
    approved: Option<Digest>,
    artifact: Option<Digest>,
}

/// Reads the digests a project lock refers to.
pub fn read_lock_refs(path: &Path) -> Result<LockRefs, StoreError> {
    let bad = |message: String| StoreError::BadProjectLock {
        path: path.to_owned(),
        message,
    };
    let text = fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let lock: MinimalLock = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut refs = LockRefs::default();
    for skill in lock.skill {
        refs.trees.extend(skill.tree);
        refs.trees.extend(skill.approved);
        refs.artifacts.extend(skill.artifact);
    }
    Ok(refs)
}

impl Store {
    fn projects_path(&self) -> PathBuf {
        self.state_dir().join(PROJECTS_FILE)
    }

    /// Records a project's lock file as a gc root. Call on every install;
    /// cheap when already known. The path is made absolute.
    pub fn register_project_lock(&self, lock_file: &Path) -> Result<(), StoreError> {
        let path = absolute_lock_path(lock_file)?;
        let _guard = self.lock_registry()?;
        let mut registry = self.read_registry()?;
        if registry.locks.insert(path) {
            self.write_registry(&registry)?;
        }
        Ok(())
    }

    /// Every registered project lock, whether or not its file still exists.
    pub fn registered_project_locks(&self) -> Result<Vec<PathBuf>, StoreError> {
        Ok(self.read_registry()?.locks.into_iter().collect())
    }

    /// Drops registered locks whose file is gone.
    pub(crate) fn forget_project_locks(&self, gone: &[PathBuf]) -> Result<(), StoreError> {
        if gone.is_empty() {
            return Ok(());
        }
        let _guard = self.lock_registry()?;
        let mut registry = self.read_registry()?;
        for path in gone {
            registry.locks.remove(path);
        }
        self.write_registry(&registry)
    }

    fn lock_registry(&self) -> Result<HeldLock, StoreError> {
        let path = self.state_dir().join(format!("{PROJECTS_FILE}.lock"));
        HeldLock::acquire(&path).map_err(io_error("lock", &path))
    }

    fn read_registry(&self) -> Result<Registry, StoreError> {
        let path = self.projects_path();
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                let why = format!("{e}; delete the file to start a new list of projects");
                io_error("parse", &path)(std::io::Error::other(why))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Registry {
                version: 1,
                ..Registry::default()
            }),
            Err(e) => Err(io_error("read", &path)(e)),
        }
    }

    /// Replaces the registry atomically (temp file in tmp/, then rename).
    fn write_registry(&self, registry: &Registry) -> Result<(), StoreError> {
        let path = self.projects_path();
        let bytes = serde_json::to_vec_pretty(&Registry {
            version: 1,
            locks: registry.locks.clone(),
        })
        .map_err(|e| io_error("encode", &path)(std::io::Error::other(e)))?;
        let mut temp = self.temp_file()?;
        std::io::Write::write_all(&mut temp, &bytes).map_err(io_error("write", temp.path()))?;
        temp.close_synced().map_err(io_error("write", &path))?;
        fs::rename(temp.path(), &path).map_err(io_error("replace", &path))?;
        temp.persisted();
        Ok(())
    }
}

/// The absolute form of a lock path (its folder resolved, the file itself
/// need not exist yet).
fn absolute_lock_path(path: &Path) -> Result<PathBuf, StoreError> {
    let absolute = std::path::absolute(path).map_err(io_error("resolve", path))?;
    let resolved = absolute
        .parent()
        .zip(absolute.file_name())
        .and_then(|(parent, name)| Some(fs::canonicalize(parent).ok()?.join(name)));
    Ok(resolved.unwrap_or(absolute))
}
