//! Checking out an untrusted tree (a git tree or a GitHub archive) into a
//! fresh folder, one entry at a time, under the rules of
//! docs/design.md#unpacking, through the one tree writer
//! (`crate::unpack::TreeWriter`).
//!
//! Regular files and folders are written; everything else (symlinks,
//! submodules, special files, unsafe names, case-insensitive twins, oversized
//! files) is *skipped and recorded*: a repository may carry such entries far
//! from the skill being installed, so they are not fatal here. The skill that
//! contains one is refused by [`super::Checkout::skill_dir`], naming the entry.
//! Nothing is ever dereferenced or written outside the folder.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use serde::Serialize;

use super::GitError;
use super::names::{check_segment, fold};
use crate::skill::printable;
use crate::unpack::{Limits, Problem, TreeWriter, UnpackError, UnpackRule};

/// Bounds on one checkout (of the subpath asked for, not of every skill in
/// it: the store applies its own per-skill limits when it imports a skill).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckoutLimits {
    /// Files and folders written, at most.
    pub max_entries: usize,
    /// A larger file is skipped (and refuses the skill holding it). Keep it
    /// at least the store's per-file limit, so that limit stays the one that
    /// speaks.
    pub max_file_bytes: u64,
    /// Bytes written (git) or decompressed (archive), at most.
    pub max_total_bytes: u64,
}

impl Default for CheckoutLimits {
    fn default() -> Self {
        CheckoutLimits {
            max_entries: 50_000,
            max_file_bytes: 16 << 20,
            max_total_bytes: 1 << 30,
        }
    }
}

/// An entry of the tree that was not written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedEntry {
    /// Path relative to the checkout root, `/`-separated (lossy for names
    /// that are not UTF-8).
    pub path: String,
    pub reason: SkipReason,
}

/// Why an entry was not written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "kebab-case")]
pub enum SkipReason {
    /// A symbolic link (git mode 120000): never followed.
    Symlink { target: String },
    /// A submodule (gitlink, mode 160000): its content is another repository.
    Submodule { commit: String },
    /// An archive entry that is neither a file nor a folder.
    Special { kind: String },
    /// A name that is not a single portable path segment.
    UnsafeName { rule: String },
    /// Equal to another entry's path on a case-insensitive file system.
    CaseCollision { other: String },
    /// A file above the per-file limit.
    TooLarge { size: u64, limit: u64 },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Symlink { target } => write!(
                f,
                "it is a symbolic link (to `{target}`); skillpm never follows links: \
                 replace it with the file itself"
            ),
            SkipReason::Submodule { commit } => write!(
                f,
                "it is a git submodule (commit {commit}); submodules are not installed: \
                 vendor the files instead"
            ),
            SkipReason::Special { kind } => {
                write!(f, "it is a {kind}, not a regular file or folder")
            }
            SkipReason::UnsafeName { rule } => write!(f, "unsafe name: {rule}"),
            SkipReason::CaseCollision { other } => write!(
                f,
                "it differs from `{other}` only in letter case, which cannot both exist \
                 on macOS or Windows"
            ),
            SkipReason::TooLarge { size, limit } => write!(
                f,
                "the file is {size} bytes, above the limit of {limit} bytes"
            ),
        }
    }
}

/// Checks out entries below `root` (an existing, empty folder): git's
/// skip-and-record policy (names claimed segment by segment, case twins and
/// oversized files skipped) on top of the one tree writer,
/// `crate::unpack::TreeWriter`, which does the writing, the name rules and
/// the limits.
pub(crate) struct CheckoutTree<'a> {
    url: &'a str,
    limits: CheckoutLimits,
    out: TreeWriter,
    /// Case-folded path → the path first claimed with it.
    claimed: HashMap<String, String>,
    skipped: Vec<SkippedEntry>,
}

/// What to do with an entry whose path was checked.
pub(crate) enum Claim {
    /// Write it at this `/`-separated relative path.
    Write(String),
    /// It was skipped (and recorded).
    Skipped,
}

impl<'a> CheckoutTree<'a> {
    pub(crate) fn new(root: &Path, url: &'a str, limits: CheckoutLimits) -> Self {
        let writer_limits = Limits {
            max_entries: limits.max_entries as u64,
            max_file_size: limits.max_file_bytes,
            max_skill_size: limits.max_total_bytes,
            ..Limits::default()
        };
        CheckoutTree {
            url,
            limits,
            out: TreeWriter::checkout(root, url, &writer_limits),
            claimed: HashMap::new(),
            skipped: Vec::new(),
        }
    }

    /// Checks `name` as a child of the already claimed folder `parent`
    /// (`""` for the root) and claims the joined path.
    pub(crate) fn claim(&mut self, parent: &str, name: &[u8]) -> Claim {
        // A refused name may hold control characters: escape before showing.
        let shown = join(parent, &printable(&String::from_utf8_lossy(name)));
        let name = match check_segment(name) {
            Ok(name) => name,
            Err(rule) => {
                self.skip(shown, SkipReason::UnsafeName { rule });
                return Claim::Skipped;
            }
        };
        let path = join(parent, name);
        match self.claimed.get(&fold(&path)) {
            Some(other) => {
                let other = other.clone();
                self.skip(path, SkipReason::CaseCollision { other });
                Claim::Skipped
            }
            None => {
                self.claimed.insert(fold(&path), path.clone());
                Claim::Write(path)
            }
        }
    }

    /// True when `path` (already claimed) is a folder claimed before.
    pub(crate) fn is_claimed(&self, path: &str) -> bool {
        self.claimed.get(&fold(path)).is_some_and(|p| p == path)
    }

    pub(crate) fn skip(&mut self, path: String, reason: SkipReason) {
        self.skipped.push(SkippedEntry { path, reason });
    }

    /// Creates the claimed folder `path`.
    pub(crate) fn dir(&mut self, path: &str) -> Result<(), GitError> {
        self.out.make_dir(path).map_err(|e| self.error(e))
    }

    /// Writes the claimed file `path` from `content`, reading at most the
    /// per-file limit (plus one byte, to notice a larger file, which is
    /// removed and skipped). A failure to read `content` becomes
    /// `read_error(e)`; a failure to write, `Io`.
    pub(crate) fn file(
        &mut self,
        path: &str,
        executable: bool,
        content: impl Read,
        read_error: impl FnOnce(io::Error) -> GitError,
    ) -> Result<(), GitError> {
        let mut file = self
            .out
            .begin_file(path, executable)
            .map_err(|e| self.error(e))?;
        let limit = self.limits.max_file_bytes;
        let mut content = content.take(limit + 1);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match content.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(read_error(e)),
            };
            match self.out.write_chunk(&mut file, &buf[..n]) {
                Ok(()) => {}
                Err(e) if matches!(e.rule(), Some(UnpackRule::FileTooLarge(_))) => {
                    let size = file.written() + n as u64;
                    self.out.discard(file).map_err(|e| self.error(e))?;
                    self.skip(path.to_owned(), SkipReason::TooLarge { size, limit });
                    return Ok(());
                }
                Err(e) => return Err(self.error(e)),
            }
        }
        self.out.end_file(file).map_err(|e| self.error(e))
    }

    pub(crate) fn limits(&self) -> CheckoutLimits {
        self.limits
    }

    /// The writer's refusal in git's words: a limit is `TooLarge` (the
    /// tree holds more than it allows), the disk is `Io`.
    fn error(&self, e: UnpackError) -> GitError {
        let too_large = |more: String| GitError::TooLarge {
            url: self.url.to_owned(),
            message: format!("the tree holds {more}"),
        };
        match e.problem {
            Problem::Refused(UnpackRule::TooManyEntries(limit)) => {
                too_large(format!("more than {limit} files and folders"))
            }
            Problem::Refused(UnpackRule::SkillTooLarge(limit)) => {
                too_large(format!("more than {limit} bytes"))
            }
            Problem::Refused(rule) => GitError::Refused {
                url: self.url.to_owned(),
                path: e.entry.unwrap_or_default(),
                reason: rule.to_string(),
            },
            Problem::Io {
                action,
                path,
                source,
            } => GitError::Io {
                action,
                path,
                source,
            },
        }
    }

    pub(crate) fn finish(self) -> Vec<SkippedEntry> {
        self.skipped
    }
}

pub(crate) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_read_error(e: io::Error) -> GitError {
        panic!("reading a slice failed: {e}")
    }

    #[test]
    fn claims_skip_unsafe_names_and_case_twins() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = CheckoutTree::new(dir.path(), "test", CheckoutLimits::default());
        assert!(matches!(w.claim("", b"README.md"), Claim::Write(p) if p == "README.md"));
        assert!(matches!(w.claim("", b"readme.md"), Claim::Skipped));
        assert!(matches!(w.claim("", b".."), Claim::Skipped));
        assert!(matches!(w.claim("x", b"CON"), Claim::Skipped));
        let skipped = w.finish();
        assert_eq!(skipped.len(), 3);
        assert_eq!(skipped[0].path, "readme.md");
        assert_eq!(skipped[2].path, "x/CON");
    }

    #[test]
    fn oversized_files_are_skipped_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let limits = CheckoutLimits {
            max_file_bytes: 4,
            ..CheckoutLimits::default()
        };
        let mut w = CheckoutTree::new(dir.path(), "test", limits);
        w.file("small", false, &b"1234"[..], no_read_error).unwrap();
        w.file("big", false, &b"12345"[..], no_read_error).unwrap();
        assert!(dir.path().join("small").is_file());
        assert!(!dir.path().join("big").exists());
        let skipped = w.finish();
        assert_eq!(skipped.len(), 1);
        assert_eq!(
            skipped[0].reason,
            SkipReason::TooLarge { size: 5, limit: 4 }
        );
    }

    #[test]
    fn totals_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let limits = CheckoutLimits {
            max_entries: 1,
            ..CheckoutLimits::default()
        };
        let mut w = CheckoutTree::new(dir.path(), "test", limits);
        w.file("a", false, &b"x"[..], no_read_error).unwrap();
        let err = w.file("b", false, &b"x"[..], no_read_error).unwrap_err();
        assert!(matches!(err, GitError::TooLarge { .. }), "{err}");
    }
}
