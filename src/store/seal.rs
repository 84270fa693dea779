//! Completeness markers: durability without an fsync per file.
//!
//! Entries are written without flushing their files. A process that added
//! (or re-checked) entries flushes the cache's file system once (`syncfs`,
//! [`crate::fs::durable`]) and only then writes, for each, the marker
//! `store/sha256-<hex>.complete`:
//!
//! ```text
//! skillpm-complete 1 sha256:<hex> <number of files>
//! d <mtime-ns> .            the entry's folders (an added or removed file
//! d <mtime-ns> scripts      changes its folder's mtime)
//! f <size> <mtime-ns> SKILL.md
//! f <size> <mtime-ns> scripts/run.sh
//! ```
//!
//! A marker is therefore only ever written after its entry's bytes were
//! durable: after a power loss an entry without a marker (or with a torn
//! one, markers are not flushed themselves) is re-hashed before use, never
//! trusted. An entry whose marker matches what `stat` says is trusted
//! without reading a byte; `cache verify` always re-hashes everything.
//! Markers are written and removed under the commit lock.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::digest::{Digest, HashedTree};

/// Suffix of a marker beside its entry.
pub(crate) const MARKER_SUFFIX: &str = ".complete";
const HEADER: &str = "skillpm-complete 1";

/// `store/sha256-<hex>.complete`.
pub(crate) fn marker_path(store_dir: &Path, digest: &Digest) -> PathBuf {
    store_dir.join(format!("{}{MARKER_SUFFIX}", digest.file_name()))
}

#[cfg(unix)]
fn mtime_ns(meta: &fs::Metadata) -> i128 {
    use std::os::unix::fs::MetadataExt;
    i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())
}

#[cfg(not(unix))]
fn mtime_ns(meta: &fs::Metadata) -> i128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}

/// The folders of a tree below its root: exactly the parents of its files
/// (the unpacker creates no others).
pub(crate) fn folders(tree: &HashedTree) -> std::collections::BTreeSet<&str> {
    let mut dirs = std::collections::BTreeSet::new();
    for file in &tree.files {
        for (i, _) in file.path.match_indices('/') {
            dirs.insert(&file.path[..i]);
        }
    }
    dirs
}

/// The marker text for `entry` as it is on disk now.
fn describe(entry: &Path, tree: &HashedTree) -> io::Result<String> {
    let mut text = format!("{HEADER} {} {}\n", tree.digest, tree.files.len());
    for dir in std::iter::once(".").chain(folders(tree)) {
        let meta = fs::symlink_metadata(entry.join(dir))?;
        text.push_str(&format!("d {} {dir}\n", mtime_ns(&meta)));
    }
    for file in &tree.files {
        let meta = fs::symlink_metadata(entry.join(&file.path))?;
        text.push_str(&format!(
            "f {} {} {}\n",
            meta.len(),
            mtime_ns(&meta),
            file.path
        ));
    }
    Ok(text)
}

/// Writes the marker of an entry whose bytes are already durable.
pub(crate) fn write_marker(store_dir: &Path, tree: &HashedTree) -> io::Result<()> {
    let entry = store_dir.join(tree.digest.file_name());
    let text = describe(&entry, tree)?;
    fs::write(marker_path(store_dir, &tree.digest), text)
}

/// Whether `entry` has a marker for `digest` that still matches every
/// folder's and file's size and mtime: the cheap check before linking.
pub(crate) fn is_sealed(store_dir: &Path, digest: &Digest) -> bool {
    let Ok(text) = fs::read_to_string(marker_path(store_dir, digest)) else {
        return false;
    };
    let entry = store_dir.join(digest.file_name());
    let mut lines = text.lines();
    let Some(count) = lines
        .next()
        .and_then(|l| l.strip_prefix(&format!("{HEADER} {digest} ")))
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return false;
    };
    let mut files = 0;
    for line in lines {
        let ok = match line.split_once(' ') {
            Some(("d", rest)) => rest.split_once(' ').is_some_and(|(mtime, dir)| {
                fs::symlink_metadata(entry.join(dir))
                    .is_ok_and(|m| m.is_dir() && mtime_ns(&m).to_string() == mtime)
            }),
            Some(("f", rest)) => {
                files += 1;
                let mut parts = rest.splitn(3, ' ');
                match (parts.next(), parts.next(), parts.next()) {
                    (Some(size), Some(mtime), Some(path)) => fs::symlink_metadata(entry.join(path))
                        .is_ok_and(|m| {
                            m.is_file()
                                && m.len().to_string() == size
                                && mtime_ns(&m).to_string() == mtime
                        }),
                    _ => false,
                }
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    // A marker torn by a crash lists fewer files than its header says.
    files > 0 && files == count && text.ends_with('\n')
}

/// Removes an entry's marker (before the entry itself goes). Gone is fine.
pub(crate) fn remove_marker(store_dir: &Path, digest: &Digest) -> io::Result<()> {
    match fs::remove_file(marker_path(store_dir, digest)) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// The digest of a marker's file name, if it is one.
pub(crate) fn marker_digest(name: &str) -> Option<Digest> {
    name.strip_suffix(MARKER_SUFFIX)
        .and_then(Digest::from_file_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::hash_tree;

    #[test]
    fn a_marker_trusts_only_the_tree_it_describes() {
        let store = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let src = scratch.path().join("s");
        fs::create_dir_all(src.join("scripts")).unwrap();
        fs::write(src.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        fs::write(src.join("scripts/run.sh"), "echo hi\n").unwrap();
        let tree = hash_tree(&src).unwrap();
        let entry = store.path().join(tree.digest.file_name());
        fs::rename(&src, &entry).unwrap();
        assert!(!is_sealed(store.path(), &tree.digest), "no marker yet");
        write_marker(store.path(), &tree).unwrap();
        assert!(is_sealed(store.path(), &tree.digest));

        // A torn marker (cut at a line end) is not trusted.
        let marker = marker_path(store.path(), &tree.digest);
        let text = fs::read_to_string(&marker).unwrap();
        let cut = text.trim_end().rfind('\n').unwrap() + 1;
        fs::write(&marker, &text[..cut]).unwrap();
        assert!(!is_sealed(store.path(), &tree.digest));
        fs::write(&marker, &text).unwrap();

        // A file added to a folder, or a file rewritten, breaks the seal.
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("scripts/extra"), "x").unwrap();
        assert!(!is_sealed(store.path(), &tree.digest));
        fs::remove_file(entry.join("scripts/extra")).unwrap();
        write_marker(store.path(), &tree).unwrap();
        assert!(is_sealed(store.path(), &tree.digest));
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("SKILL.md"), "---\nname: t\n---\n").unwrap();
        assert!(!is_sealed(store.path(), &tree.digest));
        remove_marker(store.path(), &tree.digest).unwrap();
        assert_eq!(
            marker_digest(&format!("{}.complete", tree.digest.file_name())),
            Some(tree.digest)
        );
    }
}
