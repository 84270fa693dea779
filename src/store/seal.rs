//! Completeness markers: durability without an fsync per file, and on Linux
//! without any flush.
//!
//! Entries are written without flushing their files. Once an install's
//! entries are in place, each gets the marker `store/sha256-<hex>.complete`:
//!
//! ```text
//! skillpm-complete 2 sha256:<hex> <number of files> <epoch>
//! d <mtime-ns> .            the entry's folders (an added or removed file
//! d <mtime-ns> scripts      changes its folder's mtime)
//! f <size> <mtime-ns> SKILL.md
//! f <size> <mtime-ns> scripts/run.sh
//! ```
//!
//! `<epoch>` says why the marker may be believed:
//!
//! - a boot id ([`crate::fs::durable::boot_epoch`]): the entry was complete in
//!   the page cache during that boot. Nothing is flushed. A killed process
//!   loses nothing of the page cache, so within the same boot the marker is
//!   true; after a machine crash the boot id differs, the marker is not
//!   trusted, and the entry is re-hashed (and re-sealed) before its next use.
//!   An install therefore never waits for other processes' unsynced writes,
//!   which a flush of the whole file system (`syncfs`) did on a busy CI runner.
//! - `flushed`: the cache's file system was flushed before the marker was
//!   written (systems that do not name their boot); true in any boot. Markers
//!   of version 1 were all written this way.
//!
//! An entry whose marker matches what `stat` says (and whose epoch holds) is
//! trusted without reading a byte; `cache verify` always re-hashes
//! everything. Markers are written and removed under the commit lock.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::digest::{Digest, HashedTree};

/// Suffix of a marker beside its entry.
pub(crate) const MARKER_SUFFIX: &str = ".complete";
/// Header of the markers written now, and of the older, always-flushed ones.
const HEADER: &str = "skillpm-complete 2";
const HEADER_V1: &str = "skillpm-complete 1";
/// The epoch of a marker written after a flush: true in every boot.
pub(crate) const FLUSHED: &str = "flushed";

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

/// The marker text for `entry` as it is on disk now; `epoch` is a boot id or
/// [`FLUSHED`].
fn describe(entry: &Path, tree: &HashedTree, epoch: &str) -> io::Result<String> {
    let mut text = format!("{HEADER} {} {} {epoch}\n", tree.digest, tree.files.len());
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

/// Writes the marker of an entry whose bytes are complete in this boot's page
/// cache (`epoch` = the boot id) or already flushed (`epoch` = [`FLUSHED`]).
pub(crate) fn write_marker(store_dir: &Path, tree: &HashedTree, epoch: &str) -> io::Result<()> {
    let entry = store_dir.join(tree.digest.file_name());
    let text = describe(&entry, tree, epoch)?;
    fs::write(marker_path(store_dir, &tree.digest), text)
}

/// Whether `entry` has a marker for `digest` that still matches every
/// folder's and file's size and mtime, written in this boot or after a
/// flush: the cheap check before linking.
pub(crate) fn is_sealed(store_dir: &Path, digest: &Digest) -> bool {
    is_sealed_in(store_dir, digest, crate::fs::durable::boot_epoch())
}

/// [`is_sealed`] as seen from the boot `current` (None: a system that does
/// not name its boots, where only flushed markers hold).
fn is_sealed_in(store_dir: &Path, digest: &Digest, current: Option<&str>) -> bool {
    let Ok(text) = fs::read_to_string(marker_path(store_dir, digest)) else {
        return false;
    };
    let entry = store_dir.join(digest.file_name());
    let mut lines = text.lines();
    let Some(count) = lines.next().and_then(|l| header_count(l, digest, current)) else {
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

/// The file count of a marker's first line, when it names `digest` and its
/// epoch holds in the boot `current`.
fn header_count(line: &str, digest: &Digest, current: Option<&str>) -> Option<usize> {
    if let Some(rest) = line.strip_prefix(&format!("{HEADER_V1} {digest} ")) {
        return rest.parse().ok();
    }
    let rest = line.strip_prefix(&format!("{HEADER} {digest} "))?;
    let (count, epoch) = rest.split_once(' ')?;
    let holds = epoch == FLUSHED || current == Some(epoch);
    holds.then(|| count.parse().ok()).flatten()
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
        write_marker(store.path(), &tree, FLUSHED).unwrap();
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
        write_marker(store.path(), &tree, FLUSHED).unwrap();
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

    #[test]
    fn a_marker_of_an_unflushed_entry_holds_only_in_its_own_boot() {
        let store = tempfile::tempdir().unwrap();
        let entry_src = store.path().join("staging");
        fs::create_dir_all(&entry_src).unwrap();
        fs::write(entry_src.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        let tree = hash_tree(&entry_src).unwrap();
        fs::rename(&entry_src, store.path().join(tree.digest.file_name())).unwrap();
        let (this_boot, next_boot) = (
            "0b1d5e5c-0000-4000-8000-000000000001",
            "0b1d5e5c-0000-4000-8000-000000000002",
        );

        // Honest path: sealed in this boot, trusted in this boot.
        write_marker(store.path(), &tree, this_boot).unwrap();
        assert!(is_sealed_in(store.path(), &tree.digest, Some(this_boot)));
        // After a machine crash the boot differs: re-hash before use.
        assert!(!is_sealed_in(store.path(), &tree.digest, Some(next_boot)));
        // A system that names no boot trusts only flushed markers.
        assert!(!is_sealed_in(store.path(), &tree.digest, None));

        // A flushed marker holds in every boot, as version-1 markers do.
        write_marker(store.path(), &tree, FLUSHED).unwrap();
        assert!(is_sealed_in(store.path(), &tree.digest, Some(next_boot)));
        assert!(is_sealed_in(store.path(), &tree.digest, None));
        let marker = marker_path(store.path(), &tree.digest);
        let v2 = fs::read_to_string(&marker).unwrap();
        let v1 = v2.replacen(
            &format!("{HEADER} {} 1 {FLUSHED}", tree.digest),
            &format!("{HEADER_V1} {} 1", tree.digest),
            1,
        );
        assert_ne!(v1, v2);
        fs::write(&marker, v1).unwrap();
        assert!(is_sealed_in(store.path(), &tree.digest, Some(next_boot)));
    }
}
