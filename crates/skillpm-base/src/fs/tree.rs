//! Whole trees: sealing folders read-only, removing read-only trees, sizes.

use std::fs;
use std::io;
use std::path::Path;

/// Makes `dirs` (paths relative to `root`) and then `root` read-only
/// (0555), deepest first, so a folder is sealed only after everything in it.
/// The files themselves are expected to have been created read-only.
pub fn seal_dirs(root: &Path, dirs: impl IntoIterator<Item = impl AsRef<str>>) -> io::Result<()> {
    let mut dirs: Vec<String> = dirs.into_iter().map(|d| d.as_ref().to_owned()).collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
    for dir in dirs {
        set_dir_writable(&root.join(dir), false)?;
    }
    set_dir_writable(root, false)
}

/// Makes a folder writable (0755) or read-only (0555). A no-op off Unix.
#[cfg(unix)]
pub fn set_dir_writable(dir: &Path, writable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if writable { 0o755 } else { 0o555 };
    fs::set_permissions(dir, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
pub fn set_dir_writable(_dir: &Path, _writable: bool) -> io::Result<()> {
    Ok(())
}

/// Removes a file or a whole tree, read-only or not, never following links.
/// Already gone (even partly, by a concurrent remover) is success.
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        #[cfg(not(unix))]
        if meta.permissions().readonly() {
            let mut perms = meta.permissions();
            perms.set_readonly(false);
            fs::set_permissions(path, perms)?;
        }
        return ignore_missing(fs::remove_file(path));
    }
    unlock_tree(path)?;
    ignore_missing(fs::remove_dir_all(path))
}

fn ignore_missing(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Gives every folder under `dir` write permission so its files can go.
fn unlock_tree(dir: &Path) -> io::Result<()> {
    ignore_missing(set_dir_writable(dir, true))?;
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            unlock_tree(&entry.path())?;
        } else {
            #[cfg(not(unix))]
            {
                let path = entry.path();
                let mut perms = fs::symlink_metadata(&path)?.permissions();
                perms.set_readonly(false);
                fs::set_permissions(&path, perms)?;
            }
        }
    }
    Ok(())
}

/// Bytes of all regular files under `path` (links not followed). Best
/// effort: what cannot be read counts as zero.
pub fn tree_size(path: &Path) -> u64 {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| tree_size(&e.path())).sum())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_trees_can_still_be_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("t");
        fs::create_dir_all(root.join("a/b")).unwrap();
        fs::write(root.join("a/b/f"), "x").unwrap();
        seal_dirs(&root, ["a", "a/b"]).unwrap();
        assert_eq!(tree_size(&root), 1);
        remove_tree(&root).unwrap();
        assert!(!root.exists());
        remove_tree(&root).unwrap();
    }
}
