//! A local skill folder (path and git sources), copied under the archive
//! rules. Entries are examined with `lstat` and never followed: a symlink in
//! a source tree is refused, so no content from outside the folder can be
//! copied in (a peer's known failure, see REFERENCES.md).

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::writer::TreeWriter;
use super::{Problem, Rule, SKIPPED_ROOT_DIRS, UnpackError};

pub(super) fn copy(source: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let io = Problem::io;
    // The root itself is what the user named: it may be reached through a link.
    let root_meta = fs::metadata(source).map_err(|e| tree.error(None, io("read", source)(e)))?;
    if !root_meta.is_dir() {
        return Err(tree.refuse(
            None,
            Rule::Corrupt(format!("{} is not a folder", source.display())),
        ));
    }
    // Depth-first with an explicit stack: no recursion, no handles held open.
    let mut pending: Vec<(PathBuf, String)> = vec![(source.to_owned(), String::new())];
    while let Some((dir, rel)) = pending.pop() {
        let mut items = Vec::new();
        for item in fs::read_dir(&dir).map_err(|e| tree.error(None, io("list", &dir)(e)))? {
            items.push(item.map_err(|e| tree.error(None, io("list", &dir)(e)))?);
        }
        items.sort_by_key(|item| item.file_name());
        for item in items {
            let os_name = item.file_name();
            let path = item.path();
            let Some(name) = os_name.to_str() else {
                let shown = joined(&rel, &os_name.to_string_lossy());
                return Err(tree.refuse(Some(&shown), crate::names::Rule::NotUtf8));
            };
            if rel.is_empty() && SKIPPED_ROOT_DIRS.contains(&name) {
                continue;
            }
            let rel_name = joined(&rel, name);
            let meta = item
                .metadata()
                .map_err(|e| tree.error(Some(&rel_name), io("read", &path)(e)))?;
            let file_type = meta.file_type();
            if file_type.is_symlink() {
                return Err(tree.refuse(Some(&rel_name), Rule::Symlink));
            } else if file_type.is_dir() {
                tree.add_dir(&rel_name)?;
                pending.push((path, rel_name));
            } else if file_type.is_file() {
                let mut file = File::open(&path)
                    .map_err(|e| tree.error(Some(&rel_name), io("open", &path)(e)))?;
                if !same_file(&meta, &file) {
                    return Err(tree.refuse(
                        Some(&rel_name),
                        Rule::Corrupt("the file was replaced while being copied; try again".into()),
                    ));
                }
                let executable = crate::digest::is_executable(&meta);
                tree.copy_file(
                    &rel_name,
                    executable,
                    &mut file,
                    &mut |_| Ok(()),
                    &io("read", &path),
                )?;
            } else {
                return Err(tree.refuse(
                    Some(&rel_name),
                    Rule::Special(special_kind(&file_type).into()),
                ));
            }
        }
    }
    Ok(())
}

/// `name` inside the tree-relative folder `rel` (`""`: the root).
fn joined(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_owned()
    } else {
        format!("{rel}/{name}")
    }
}

/// Whether the opened file is the one examined (not swapped for a link since).
#[cfg(unix)]
fn same_file(examined: &fs::Metadata, opened: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    opened
        .metadata()
        .is_ok_and(|m| m.is_file() && m.dev() == examined.dev() && m.ino() == examined.ino())
}

#[cfg(not(unix))]
fn same_file(_examined: &fs::Metadata, opened: &File) -> bool {
    opened.metadata().is_ok_and(|m| m.is_file())
}

fn special_kind(file_type: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "FIFO";
        } else if file_type.is_socket() {
            return "socket";
        } else if file_type.is_char_device() {
            return "character device";
        } else if file_type.is_block_device() {
            return "block device";
        }
    }
    let _ = file_type;
    "special file"
}
