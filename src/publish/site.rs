//! The site tree: every file a static host serves, built in memory, then
//! written to a staging folder beside `--out` and swapped into place, so a
//! failed publish leaves the old site exactly as it was.

use std::collections::BTreeMap;
use std::path::Path;

use super::PublishError;

/// Where the v0.2.0 index, its signature, the archives and the v0.2.0 copy
/// of each tree live, relative to the site root.
pub const AGENT_SKILLS_DIR: &str = ".well-known/agent-skills";
/// Where the v0.1.0 (legacy) index and its copy of each tree live.
pub const LEGACY_SKILLS_DIR: &str = ".well-known/skills";
pub const INDEX_FILE: &str = "index.json";
pub const SIGNATURE_FILE: &str = "index.json.minisig";
/// GitHub Pages runs Jekyll unless this file exists, and Jekyll skips
/// dot-folders such as `.well-known`.
pub const NOJEKYLL_FILE: &str = ".nojekyll";

/// `.well-known/agent-skills/index.json`, relative to the site root.
pub fn index_path() -> String {
    format!("{AGENT_SKILLS_DIR}/{INDEX_FILE}")
}

pub fn signature_path() -> String {
    format!("{AGENT_SKILLS_DIR}/{SIGNATURE_FILE}")
}

/// `.well-known/agent-skills/index.<version>.json`: the signed index of
/// each version, kept beside `index.json` (with `.minisig`) so a client
/// whose lock names an older version can still prove it on a cold cache.
pub fn versioned_index_path(version: u64) -> String {
    format!("{AGENT_SKILLS_DIR}/index.{version}.json")
}

/// The version of a `index.<version>.json` or `index.<version>.json.minisig`
/// file name.
fn versioned_file_version(name: &str) -> Option<u64> {
    let rest = name.strip_prefix("index.")?;
    let digits = rest
        .strip_suffix(".json.minisig")
        .or_else(|| rest.strip_suffix(".json"))?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

pub fn legacy_index_path() -> String {
    format!("{LEGACY_SKILLS_DIR}/{INDEX_FILE}")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// Every file of a site, by relative `/`-separated path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Site {
    pub files: BTreeMap<String, SiteFile>,
}

impl Site {
    pub fn insert(&mut self, path: impl Into<String>, bytes: Vec<u8>, executable: bool) {
        self.files
            .insert(path.into(), SiteFile { bytes, executable });
    }

    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(|f| f.bytes.as_slice())
    }

    /// Whether `dir` already holds exactly this site: the same files, bytes
    /// and executable bits, and nothing else. Unreadable means "no".
    pub fn matches_dir(&self, dir: &Path) -> bool {
        let Ok(tree) = crate::digest::hash_tree(dir) else {
            return false;
        };
        tree.files.len() == self.files.len()
            && tree.files.iter().all(|on_disk| {
                self.files.get(&on_disk.path).is_some_and(|ours| {
                    ours.executable == on_disk.executable
                        && crate::digest::Digest::of_bytes(&ours.bytes) == on_disk.digest
                })
            })
    }

    /// Writes the site into `out`, replacing what was there. The new tree is
    /// written completely into a hidden sibling folder first; only then is the
    /// old `out` moved aside and the new one renamed in. On any failure the
    /// staging folder is removed and `out` is untouched.
    pub fn write_to(&self, out: &Path) -> Result<(), PublishError> {
        let parent = crate::fs::parent_dir(out);
        std::fs::create_dir_all(&parent).map_err(PublishError::io("cannot create", &parent))?;
        let base = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "site".to_owned());
        let token = format!("{:016x}", fastrand::u64(..));
        let staging = parent.join(format!(".{base}.skillpm-staging-{token}"));
        let old = parent.join(format!(".{base}.skillpm-old-{token}"));

        if let Err(e) = self.write_tree(&staging) {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
        let had_old = out.exists();
        if had_old && let Err(e) = std::fs::rename(out, &old) {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(PublishError::io("cannot move the old site aside", out)(e));
        }
        if let Err(e) = std::fs::rename(&staging, out) {
            if had_old {
                let _ = std::fs::rename(&old, out);
            }
            let _ = std::fs::remove_dir_all(&staging);
            return Err(PublishError::io("cannot move the new site into", out)(e));
        }
        if had_old {
            // The new site is in place; a leftover old copy is only clutter.
            let _ = std::fs::remove_dir_all(&old);
        }
        // Best effort: not every platform can sync a folder.
        let _ = crate::fs::sync_dir(&parent);
        Ok(())
    }

    fn write_tree(&self, root: &Path) -> Result<(), PublishError> {
        std::fs::create_dir(root).map_err(PublishError::io("cannot create", root))?;
        for (rel, file) in &self.files {
            let path = root.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(PublishError::io("cannot create", dir))?;
            }
            write_file(&path, &file.bytes, file.executable)?;
        }
        Ok(())
    }
}

fn write_file(path: &Path, bytes: &[u8], executable: bool) -> Result<(), PublishError> {
    use std::io::Write;
    let mut file = std::fs::File::create(path).map_err(PublishError::io("cannot create", path))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(PublishError::io("cannot write", path))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(PublishError::io("cannot set the mode of", path))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

/// What an earlier publish left in `out`, read before it is replaced: the
/// signed index and its signature decide the next version and let an
/// unchanged index keep its signature byte for byte.
#[derive(Debug, Default)]
pub struct PreviousSite {
    pub index: Option<Vec<u8>>,
    pub signature: Option<String>,
    /// The versioned snapshots (`index.<N>.json` and their `.minisig`) it
    /// kept, by site path: carried into the next site unchanged.
    pub versioned: BTreeMap<String, Vec<u8>>,
}

impl PreviousSite {
    pub fn read(out: &Path) -> Self {
        let mut versioned = BTreeMap::new();
        if let Ok(entries) = std::fs::read_dir(out.join(AGENT_SKILLS_DIR)) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if versioned_file_version(&name).is_some()
                    && let Ok(bytes) = std::fs::read(entry.path())
                {
                    versioned.insert(format!("{AGENT_SKILLS_DIR}/{name}"), bytes);
                }
            }
        }
        PreviousSite {
            index: std::fs::read(out.join(index_path())).ok(),
            signature: std::fs::read_to_string(out.join(signature_path())).ok(),
            versioned,
        }
    }
}

/// Refuses an `out` that holds something other than a skillpm site, so a
/// mistyped `--out` never replaces a folder of unrelated files.
pub fn ensure_replaceable(out: &Path) -> Result<(), PublishError> {
    let replaceable = match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(PublishError::io("cannot inspect", out)(e)),
        Ok(meta) if !meta.is_dir() => false,
        Ok(_) => {
            let mut entries =
                std::fs::read_dir(out).map_err(PublishError::io("cannot read", out))?;
            entries.next().is_none() || out.join(index_path()).is_file()
        }
    };
    if replaceable {
        Ok(())
    } else {
        Err(PublishError::NotASite {
            out: out.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn versioned_file_names() {
        use super::versioned_file_version as v;
        assert_eq!(v("index.3.json"), Some(3));
        assert_eq!(v("index.12.json.minisig"), Some(12));
        assert_eq!(v("index.json"), None);
        assert_eq!(v("index..json"), None);
        assert_eq!(v("index.x.json"), None);
    }

    use super::*;

    #[test]
    fn write_replaces_the_old_site_and_leaves_no_staging() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let mut first = Site::default();
        first.insert(index_path(), b"{}\n".to_vec(), false);
        first.insert("old.txt", b"old".to_vec(), false);
        first.write_to(&out).unwrap();
        assert!(first.matches_dir(&out));

        let mut second = Site::default();
        second.insert(index_path(), b"{\"skills\":[]}\n".to_vec(), false);
        second.insert("bin/run", b"#!/bin/sh\n".to_vec(), true);
        assert!(!second.matches_dir(&out));
        second.write_to(&out).unwrap();
        assert!(second.matches_dir(&out));
        assert!(!out.join("old.txt").exists());
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["site"]);
    }

    #[test]
    fn a_folder_of_other_files_is_not_replaceable() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(ensure_replaceable(&tmp.path().join("new")).is_ok());
        std::fs::write(tmp.path().join("precious.txt"), "x").unwrap();
        let err = ensure_replaceable(tmp.path()).unwrap_err();
        assert!(matches!(err, PublishError::NotASite { .. }), "{err}");
    }
}
