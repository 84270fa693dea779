//! zip artifacts. The central directory is read first and every entry judged
//! (name, type, encryption, method) before a byte is written; then each file
//! is streamed through the tree writer with the ratio judged per entry and
//! for the archive as a whole.

use std::io::BufReader;
use std::path::Path;

use ::zip::{CompressionMethod, ZipArchive};

use super::writer::TreeWriter;
use super::{Problem, UnpackError, UnpackRule};
use crate::names::utf8_name;

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;

/// One entry as planned from the central directory.
struct Planned {
    index: usize,
    /// Name without a folder's trailing `/`.
    name: String,
    is_dir: bool,
    executable: bool,
    declared_size: u64,
}

pub(super) fn unpack(path: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let file = tree.open_artifact(path)?;
    let archive_len = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
    let mut archive = ZipArchive::new(BufReader::with_capacity(64 * 1024, file)).map_err(|e| {
        tree.refuse(
            None,
            UnpackRule::Corrupt(format!("not a readable zip archive: {e}")),
        )
    })?;
    if archive.has_duplicate_names() {
        return Err(tree.refuse(None, UnpackRule::DuplicateInZip));
    }
    let max_entries = tree.limits().max_entries;
    if archive.len() as u64 > max_entries {
        return Err(tree.refuse(None, UnpackRule::TooManyEntries(max_entries)));
    }
    archive
        .validate_header_consistency()
        .map_err(|e| tree.refuse(None, UnpackRule::HeaderMismatch(e.to_string())))?;

    let plan = plan_entries(&archive, tree)?;
    let limits = *tree.limits();
    for entry in plan {
        if entry.is_dir {
            tree.add_dir(&entry.name)?;
            continue;
        }
        if entry.declared_size > limits.max_file_size {
            return Err(tree.refuse(
                Some(&entry.name),
                UnpackRule::FileTooLarge(limits.max_file_size),
            ));
        }
        let mut reader = archive.by_index(entry.index).map_err(|e| {
            tree.refuse(
                Some(&entry.name),
                UnpackRule::Corrupt(format!("cannot read the entry: {e}")),
            )
        })?;
        let compressed = reader.compressed_size();
        let before = tree.total_written();
        let mut guard = |out: u64| {
            if limits.ratio_exceeded(out, compressed)
                || limits.ratio_exceeded(before + out, archive_len)
            {
                Err(UnpackRule::Ratio(limits.max_ratio))
            } else {
                Ok(())
            }
        };
        tree.copy_file(
            &entry.name,
            entry.executable,
            &mut reader,
            &mut guard,
            &|e| {
                Problem::Refused(UnpackRule::Corrupt(format!(
                    "cannot decompress the entry: {e}"
                )))
            },
        )?;
    }
    Ok(())
}

/// Judges every central-directory entry without extracting anything.
fn plan_entries<R: std::io::Read + std::io::Seek>(
    archive: &ZipArchive<R>,
    tree: &TreeWriter,
) -> Result<Vec<Planned>, UnpackError> {
    let mut plan = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let entry = archive.by_index_data(index).map_err(|e| {
            tree.refuse(
                None,
                UnpackRule::Corrupt(format!("unreadable entry #{index}: {e}")),
            )
        })?;
        let raw = entry.name_raw();
        let lossy = String::from_utf8_lossy(raw).into_owned();
        let name = utf8_name(raw).map_err(|rule| tree.refuse(Some(&lossy), rule))?;
        let refuse = |rule| tree.refuse(Some(name), rule);
        let stripped = name.strip_suffix('/').unwrap_or(name);
        let is_dir = stripped.len() < name.len();
        tree.check(stripped)?;
        if entry.encrypted() {
            return Err(refuse(UnpackRule::Encrypted));
        }
        let mode = entry.unix_mode().unwrap_or(0);
        match (mode & S_IFMT, is_dir) {
            (0, _) | (S_IFREG, false) | (S_IFDIR, true) => {}
            (S_IFLNK, _) => return Err(refuse(UnpackRule::Symlink)),
            (S_IFDIR, false) => {
                return Err(refuse(UnpackRule::Special(
                    "folder-typed entries without a trailing `/`".into(),
                )));
            }
            (S_IFREG, true) => {
                return Err(refuse(UnpackRule::Special(
                    "file-typed entries with a trailing `/`".into(),
                )));
            }
            (other, _) => return Err(refuse(UnpackRule::Special(special_name(other).into()))),
        }
        match entry.compression() {
            CompressionMethod::Stored | CompressionMethod::Deflated => {}
            other => return Err(refuse(UnpackRule::Compression(other.to_string()))),
        }
        if is_dir && entry.size() > 0 {
            return Err(refuse(UnpackRule::Corrupt(
                "a folder entry carries data".into(),
            )));
        }
        plan.push(Planned {
            index,
            name: stripped.to_owned(),
            is_dir,
            executable: mode & 0o111 != 0,
            declared_size: entry.size(),
        });
    }
    Ok(plan)
}

/// What a Unix file-type field names, for messages.
pub(super) fn special_name(file_type: u32) -> &'static str {
    match file_type {
        0o010_000 => "FIFO",
        0o020_000 => "character device",
        0o060_000 => "block device",
        0o140_000 => "socket",
        _ => "unknown file type",
    }
}
