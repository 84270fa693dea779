//! Strict unpacking (docs/design.md#unpacking): zip, tar.gz, a lone SKILL.md, a v0.1.0 file
//! list, or a local folder, into a staging folder the caller owns.
//!
//! Every input goes through the same [`writer::TreeWriter`], so the same name
//! rules and limits hold whatever carried the skill, and the tree digest is
//! computed from the very bytes written (one pass: read, hash, write). Never
//! `ZipArchive::extract` or `tar::Archive::unpack`: both accept inputs skillpm
//! must refuse (see REFERENCES.md).
//!
//! On failure the staging folder may hold partial files: the caller (the
//! store) removes it, so nothing of a refused skill survives.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::digest::HashedTree;
use crate::error::{Classify, Exit};

mod dir;
mod file_list;
mod kind;
pub mod limits;
mod skill_md;
mod targz;
mod writer;
mod zip;

pub use file_list::FileList;
pub use kind::ArtifactKind;
pub use limits::{Limits, Size};
pub use writer::FilesAsWritten;
pub(crate) use writer::TreeWriter;

/// Folder names skipped at the root of a local source: a checkout's own
/// version-control data is not skill content.
pub const SKIPPED_ROOT_DIRS: &[&str] = &[".git"];

/// Unpacks an artifact file of a known kind into `staging` (an existing,
/// empty folder) and checks the result is a valid skill named `expected_name`.
/// `label` names the artifact in errors (its URL or file name).
pub fn unpack_artifact(
    kind: ArtifactKind,
    artifact: &Path,
    label: &str,
    expected_name: &str,
    staging: &Path,
    limits: &Limits,
) -> Result<(HashedTree, Option<FilesAsWritten>), UnpackError> {
    let unpack = match kind {
        ArtifactKind::Zip => zip::unpack,
        ArtifactKind::TarGz => targz::unpack,
        ArtifactKind::SkillMd => skill_md::unpack,
    };
    write_tree(staging, label, expected_name, limits, |tree| {
        unpack(artifact, tree)
    })
}

/// Copies a local skill folder (a path or git source) into `staging` under the
/// same rules: symlinks and special files are refused, never followed.
pub fn unpack_dir(
    source: &Path,
    label: &str,
    expected_name: &str,
    staging: &Path,
    limits: &Limits,
) -> Result<(HashedTree, Option<FilesAsWritten>), UnpackError> {
    write_tree(staging, label, expected_name, limits, |tree| {
        dir::copy(source, tree)
    })
}

/// Fills a fresh tree writer with `fill`, then checks the skill it wrote.
fn write_tree(
    staging: &Path,
    label: &str,
    expected_name: &str,
    limits: &Limits,
    fill: impl FnOnce(&mut writer::TreeWriter) -> Result<(), UnpackError>,
) -> Result<(HashedTree, Option<FilesAsWritten>), UnpackError> {
    let mut tree = writer::TreeWriter::new(staging, label, limits);
    fill(&mut tree)?;
    tree.finish(expected_name)
}

/// Why an artifact was refused (exit 5) or could not be unpacked (exit 1).
#[derive(Debug)]
pub struct UnpackError {
    /// The artifact: its URL, file name or folder.
    pub artifact: String,
    /// The offending entry's raw name, when one is to blame.
    pub entry: Option<String>,
    pub problem: Problem,
}

#[derive(Debug)]
pub enum Problem {
    /// The content breaks a rule: unsafe or invalid, never stored.
    Refused(UnpackRule),
    /// The local file system failed us (disk full, permissions).
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
}

impl Problem {
    /// What a failed `action` on `path` means: the machine, not the content.
    pub(crate) fn io(action: &'static str, path: &Path) -> impl Fn(io::Error) -> Problem {
        let path = path.to_owned();
        move |source| Problem::Io {
            action,
            path: path.clone(),
            source,
        }
    }
}

impl UnpackError {
    /// The rule broken, when the content (not the machine) is at fault.
    pub fn rule(&self) -> Option<&UnpackRule> {
        match &self.problem {
            Problem::Refused(rule) => Some(rule),
            Problem::Io { .. } => None,
        }
    }
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.problem {
            Problem::Refused(_) => "refused",
            Problem::Io { .. } => "cannot unpack",
        };
        write!(f, "{verb} {}", self.artifact)?;
        if let Some(entry) = &self.entry {
            // Escaped: a hostile name must not drive the terminal.
            write!(f, ", entry `{}`", entry.escape_debug())?;
        }
        match &self.problem {
            Problem::Refused(rule) => write!(f, ": {rule}"),
            Problem::Io {
                action,
                path,
                source,
            } => {
                write!(f, ": cannot {action} {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for UnpackError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::Refused(_) => None,
            Problem::Io { source, .. } => Some(source),
        }
    }
}

crate::classified!(UnpackError);
impl Classify for UnpackError {
    fn exit(&self) -> Exit {
        match self.problem {
            Problem::Refused(_) => Exit::Unsafe,
            Problem::Io { .. } => Exit::Other,
        }
    }
}

// Every rule refuses unsafe or invalid content (docs/design.md#unpacking).
crate::classified!(UnpackRule => Unsafe);

/// The rules of docs/design.md#unpacking, one variant each, worded for the person reading
/// the error: what is wrong and, where there is one, what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnpackRule {
    /// A name rule of docs/design.md#unpacking (crates/skillpm-base/src/names.rs).
    #[error(transparent)]
    Name(#[from] crate::names::NameRule),
    #[error("two entries of the zip's central directory have the same name")]
    DuplicateInZip,
    #[error("symbolic links are not allowed (only regular files and folders)")]
    Symlink,
    #[error("hard links are not allowed (only regular files and folders)")]
    Hardlink,
    #[error("{0} entries are not allowed (only regular files and folders)")]
    Special(String),
    #[error("encrypted entries are not supported")]
    Encrypted,
    #[error("compression method `{0}` is not supported: use deflate or store")]
    Compression(String),
    #[error("the archive is inconsistent ({0}); re-create it with a standard tool")]
    HeaderMismatch(String),
    #[error("more than {0} entries (raise `max-entries` under [limits] if this is expected)")]
    TooManyEntries(u64),
    #[error("a file larger than {} (raise `max-file-size` under [limits] if this is expected)", Size(*.0))]
    FileTooLarge(u64),
    #[error("more than {} of files in total (raise `max-skill-size` under [limits] if this is expected)", Size(*.0))]
    SkillTooLarge(u64),
    #[error(
        "expands more than {0} times its compressed size, like a decompression bomb (raise `max-ratio` under [limits] if this is expected)"
    )]
    Ratio(u64),
    #[error("{0}")]
    Corrupt(String),
    #[error("no SKILL.md at the root{0}")]
    NoSkillMd(String),
    #[error(
        "SKILL.md is inside the wrapper folder `{0}/`: put SKILL.md at the root of the archive (archive the folder's contents, not the folder)"
    )]
    WrapperFolder(String),
    #[error("not a valid skill: {0}")]
    InvalidSkill(String),
}
