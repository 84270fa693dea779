//! File-system chores of the store: read-only trees, forced removal, sizes.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::Path;

use crate::digest::HashedTree;

/// Makes a staged tree read-only: folders 0555, deepest first, the root
/// last (on Unix the files were created read-only by the unpacker). The
/// folders are exactly the parents of the tree's files (the unpacker creates
/// no others), so no directory listing is needed.
pub(crate) fn make_read_only(root: &Path, tree: &HashedTree) -> io::Result<()> {
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for file in &tree.files {
        for (i, _) in file.path.match_indices('/') {
            dirs.insert(&file.path[..i]);
        }
        #[cfg(not(unix))]
        {
            let path = root.join(&file.path);
            let mut perms = fs::metadata(&path)?.permissions();
            perms.set_readonly(true);
            fs::set_permissions(&path, perms)?;
        }
    }
    // Longer paths first: a folder is sealed only after everything in it.
    let mut dirs: Vec<&str> = dirs.into_iter().collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
    for dir in dirs {
        set_dir_writable(&root.join(dir), false)?;
    }
    set_dir_writable(root, false)
}

#[cfg(unix)]
fn set_dir_writable(dir: &Path, writable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if writable { 0o755 } else { 0o555 };
    fs::set_permissions(dir, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_dir_writable(_dir: &Path, _writable: bool) -> io::Result<()> {
    Ok(())
}

/// Makes a read-only entry's root folder writable again, so it can be moved
/// to another parent (quarantine) where the OS demands it.
pub(crate) fn make_root_writable(dir: &Path) -> io::Result<()> {
    set_dir_writable(dir, true)
}

/// Removes a file or a whole tree, read-only or not, never following links.
/// Already gone is success.
pub(crate) fn remove_tree(path: &Path) -> io::Result<()> {
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
        return match fs::remove_file(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        };
    }
    unlock_tree(path)?;
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Gives every folder under `dir` write permission so its files can go.
fn unlock_tree(dir: &Path) -> io::Result<()> {
    set_dir_writable(dir, true)?;
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
pub(crate) fn tree_size(path: &Path) -> u64 {
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

/// Flushes a folder's entries (a rename into it) to disk where that exists.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}
