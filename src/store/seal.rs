//! Completeness markers: durability without an fsync per file, and on Linux
//! without any flush.
//!
//! Entries are written without flushing their files. Once an install's
//! entries are in place, each gets the marker `store/sha256-<hex>.complete`:
//!
//! ```text
//! skillpm-complete 3 sha256:<hex> <number of files> <epoch>
//! d <mtime-ns> .            the entry's folders (an added or removed file
//! d <mtime-ns> scripts      changes its folder's mtime)
//! f <size> <mtime-ns> <digest hex> <x|-> SKILL.md
//! f <size> <mtime-ns> <digest hex> <x|-> scripts/run.sh
//! ```
//!
//! Since version 3 the marker is also the entry's file list (each file's
//! digest and executable bit), which [`listed_tree`] reads back: it hashes
//! to the entry's name or is ignored, so it needs no trust in the marker's
//! epoch. A separate record per stored tree (`state/trees/`) was one more
//! file created per skill on every cold install; such a record is now
//! written only when an entry leaves the store, so `update` can still diff
//! against an approved version whose bytes are gone (`super::trees`).
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
/// Header of the markers written now (with the file list), of the ones
/// before (without), and of the oldest, always-flushed ones.
const HEADER: &str = "skillpm-complete 3";
const HEADER_V2: &str = "skillpm-complete 2";
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
        let mode = if file.executable { 'x' } else { '-' };
        text.push_str(&format!(
            "f {} {} {} {mode} {}\n",
            meta.len(),
            mtime_ns(&meta),
            file.digest.hex(),
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
    let Some((count, listed)) = lines.next().and_then(|l| header_count(l, digest, current)) else {
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
                file_line(rest, listed).is_some_and(|f| {
                    fs::symlink_metadata(entry.join(f.path)).is_ok_and(|m| {
                        m.is_file()
                            && m.len().to_string() == f.size
                            && mtime_ns(&m).to_string() == f.mtime
                    })
                })
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

/// The file count of a marker's first line, and whether its file lines
/// carry digests (version 3), when it names `digest` and its epoch holds in
/// the boot `current`.
fn header_count(line: &str, digest: &Digest, current: Option<&str>) -> Option<(usize, bool)> {
    if let Some(rest) = line.strip_prefix(&format!("{HEADER_V1} {digest} ")) {
        return Some((rest.parse().ok()?, false));
    }
    let (rest, listed) = match line.strip_prefix(&format!("{HEADER} {digest} ")) {
        Some(rest) => (rest, true),
        None => (line.strip_prefix(&format!("{HEADER_V2} {digest} "))?, false),
    };
    let (count, epoch) = rest.split_once(' ')?;
    let holds = epoch == FLUSHED || current == Some(epoch);
    holds.then(|| Some((count.parse().ok()?, listed))).flatten()
}

/// One `f` line of a marker, after the `f `.
struct FileLine<'l> {
    size: &'l str,
    mtime: &'l str,
    /// Version 3: the file's digest (hex) and whether it is executable.
    listed: Option<(&'l str, bool)>,
    path: &'l str,
}

fn file_line(rest: &str, listed: bool) -> Option<FileLine<'_>> {
    let (size, rest) = rest.split_once(' ')?;
    let (mtime, rest) = rest.split_once(' ')?;
    let (listed, path) = if listed {
        let (hex, rest) = rest.split_once(' ')?;
        let (mode, path) = rest.split_once(' ')?;
        let executable = match mode {
            "x" => true,
            "-" => false,
            _ => return None,
        };
        (Some((hex, executable)), path)
    } else {
        (None, rest)
    };
    Some(FileLine {
        size,
        mtime,
        listed,
        path,
    })
}

/// The file list a version-3 marker gives for `digest`, whatever its epoch
/// and whether or not the entry is still there: it is believed only if it
/// hashes to `digest`.
pub(crate) fn listed_tree(store_dir: &Path, digest: &Digest) -> Option<HashedTree> {
    let text = fs::read_to_string(marker_path(store_dir, digest)).ok()?;
    let mut lines = text.lines();
    let rest = lines.next()?.strip_prefix(&format!("{HEADER} {digest} "))?;
    let count: usize = rest.split_once(' ')?.0.parse().ok()?;
    let mut files = Vec::with_capacity(count);
    for line in lines {
        if let Some(rest) = line.strip_prefix("f ") {
            let f = file_line(rest, true)?;
            let (hex, executable) = f.listed?;
            files.push(crate::digest::TreeFile {
                path: f.path.to_owned(),
                size: f.size.parse().ok()?,
                digest: Digest::from_hex(hex)?,
                executable,
            });
        }
    }
    if files.len() != count {
        return None;
    }
    let tree = HashedTree::from_files(files);
    (tree.digest == *digest).then_some(tree)
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
        let v3 = fs::read_to_string(&marker).unwrap();
        // Markers of earlier versions list no digests and still hold.
        let unlisted = v3.replacen(
            &format!(" {} - SKILL.md", tree.files[0].digest.hex()),
            " SKILL.md",
            1,
        );
        let v2 = unlisted.replacen(HEADER, HEADER_V2, 1);
        let v1 = unlisted.replacen(
            &format!("{HEADER} {} 1 {FLUSHED}", tree.digest),
            &format!("{HEADER_V1} {} 1", tree.digest),
            1,
        );
        for old in [v2, v1] {
            assert_ne!(old, v3);
            fs::write(&marker, &old).unwrap();
            assert!(
                is_sealed_in(store.path(), &tree.digest, Some(next_boot)),
                "{old}"
            );
            assert_eq!(listed_tree(store.path(), &tree.digest), None, "{old}");
        }
    }

    #[test]
    fn a_marker_lists_its_tree_only_when_the_list_hashes_to_its_name() {
        let store = tempfile::tempdir().unwrap();
        let staging = store.path().join("staging");
        fs::create_dir_all(staging.join("scripts")).unwrap();
        fs::write(staging.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        fs::write(staging.join("scripts/run me.sh"), "echo hi\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let run = staging.join("scripts/run me.sh");
            fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let tree = hash_tree(&staging).unwrap();
        fs::rename(&staging, store.path().join(tree.digest.file_name())).unwrap();

        // Honest path: the list comes back whole, in any boot, paths with
        // spaces and executable bits included.
        write_marker(store.path(), &tree, "0b1d5e5c-0000-4000-8000-000000000001").unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), Some(tree.clone()));

        // A list edited to claim other bytes, or cut short, is not believed.
        let marker = marker_path(store.path(), &tree.digest);
        let text = fs::read_to_string(&marker).unwrap();
        let other = crate::digest::Digest::of_bytes(b"evil").hex();
        let forged = text.replacen(&tree.files[0].digest.hex(), &other, 1);
        assert_ne!(forged, text);
        fs::write(&marker, &forged).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);
        let cut = text.trim_end().rfind('\n').unwrap() + 1;
        fs::write(&marker, &text[..cut]).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);
        // The marker of another tree copied under this name lists nothing.
        fs::write(&marker, text.replacen("SKILL.md", "EVIL.md", 1)).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);
    }
}
