//! tar.gz artifacts, streamed: gzip bytes in, tar entries out, files written
//! as they arrive. Limits are enforced on the decompressed stream itself, so
//! even the tar crate's own reads (long names, PAX records) cannot balloon.

use std::cell::Cell;
use std::io::{self, Read};
use std::path::Path;
use std::rc::Rc;

use flate2::read::MultiGzDecoder;
use tar::EntryType;

use super::writer::TreeWriter;
use super::{Limits, Problem, UnpackError, UnpackRule};
use crate::names::utf8_name;

/// Decompressed bytes allowed beyond the files themselves, per entry: a
/// header, a PAX record and padding.
const OVERHEAD_PER_ENTRY: u64 = 4 * 1024;

/// Counts the compressed bytes read from the artifact.
struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The decompressed stream, failing as soon as it exceeds the skill's budget
/// or the compression ratio; the rule broken is left in `tripped`.
struct Guarded<R> {
    inner: R,
    compressed: Rc<Cell<u64>>,
    out: u64,
    budget: u64,
    limits: Limits,
    tripped: Rc<Cell<Option<UnpackRule>>>,
}

impl<R: Read> Read for Guarded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.out += n as u64;
        let rule = if self.out > self.budget {
            Some(UnpackRule::SkillTooLarge(self.limits.max_skill_size))
        } else if self.limits.ratio_exceeded(self.out, self.compressed.get()) {
            Some(UnpackRule::Ratio(self.limits.max_ratio))
        } else {
            None
        };
        match rule {
            Some(rule) => {
                self.tripped.set(Some(rule));
                Err(io::Error::other("unpack limit exceeded"))
            }
            None => Ok(n),
        }
    }
}

pub(super) fn unpack(path: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let file = tree.open_artifact(path)?;
    let limits = *tree.limits();
    let compressed = Rc::new(Cell::new(0));
    let tripped: Rc<Cell<Option<UnpackRule>>> = Rc::new(Cell::new(None));
    let stream = Guarded {
        inner: MultiGzDecoder::new(Counted {
            inner: file,
            count: compressed.clone(),
        }),
        compressed,
        out: 0,
        budget: limits
            .max_skill_size
            .saturating_add(limits.max_entries.saturating_mul(OVERHEAD_PER_ENTRY))
            .saturating_add(1024 * 1024),
        limits,
        tripped: tripped.clone(),
    };
    // What a failed read of the stream means: a limit, or a broken archive.
    let stream_problem = |e: io::Error| match tripped.take() {
        Some(rule) => Problem::Refused(rule),
        None => Problem::Refused(UnpackRule::Corrupt(format!(
            "the tar.gz stream is truncated or corrupt: {e}"
        ))),
    };

    let mut archive = tar::Archive::new(stream);
    let entries = archive
        .entries()
        .map_err(|e| tree.error(None, stream_problem(e)))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| tree.error(None, stream_problem(e)))?;
        let raw = entry.path_bytes().into_owned();
        let lossy = String::from_utf8_lossy(&raw).into_owned();
        let entry_type = entry.header().entry_type();
        let refuse = |rule: UnpackRule| tree.refuse(Some(&lossy), rule);
        if let Some(rule) = refused_type(entry_type) {
            return Err(refuse(rule));
        }
        let name = utf8_name(&raw).map_err(|rule| refuse(rule.into()))?;
        match entry_type {
            EntryType::XGlobalHeader => {
                // `git archive` writes one (the commit id): metadata, not content.
                tree.count_entry(name)?;
            }
            EntryType::Directory => {
                tree.add_dir(name.strip_suffix('/').unwrap_or(name))?;
            }
            _ => {
                if entry.size() > limits.max_file_size {
                    return Err(
                        tree.refuse(Some(name), UnpackRule::FileTooLarge(limits.max_file_size))
                    );
                }
                let executable = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
                let name = name.to_owned();
                tree.copy_file(
                    &name,
                    executable,
                    &mut entry,
                    &mut |_| Ok(()),
                    &stream_problem,
                )?;
            }
        }
    }
    // Read to the end of the gzip stream, so its CRC and length are checked
    // and a truncated artifact is refused even when the tar part looked whole.
    let mut rest = archive.into_inner();
    io::copy(&mut rest, &mut io::sink()).map_err(|e| tree.error(None, stream_problem(e)))?;
    Ok(())
}

/// Why an entry of this tar type is refused: links and special files are
/// not skill content (and a link could point outside the tree). `None`:
/// a file, a folder, or `git archive`'s global header.
fn refused_type(entry_type: EntryType) -> Option<UnpackRule> {
    let special = |what: &str| Some(UnpackRule::Special(what.into()));
    match entry_type {
        EntryType::Regular | EntryType::Directory | EntryType::XGlobalHeader => None,
        EntryType::Symlink => Some(UnpackRule::Symlink),
        EntryType::Link => Some(UnpackRule::Hardlink),
        EntryType::Fifo => special("FIFO"),
        EntryType::Char => special("character device"),
        EntryType::Block => special("block device"),
        EntryType::GNUSparse => special("sparse file"),
        EntryType::Continuous => special("contiguous file"),
        other => Some(UnpackRule::Special(format!(
            "tar type `{}`",
            char::from(other.as_byte()).escape_default()
        ))),
    }
}
