//! Everything that can stop a publish or a keygen, each with its exit code.

use std::path::PathBuf;

use crate::digest::DigestError;
use crate::error::{Classify, Exit};

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// One or more skills failed `check`; `report` holds check's messages.
    #[error(
        "refusing to publish {dir}: {invalid} of {total} skills failed `skillpm check` (nothing was written):\n\n{report}"
    )]
    InvalidSkills {
        dir: PathBuf,
        invalid: usize,
        total: usize,
        report: String,
    },
    #[error("cannot publish skill `{skill}`: {source}")]
    Tree {
        skill: String,
        #[source]
        source: DigestError,
    },
    #[error(
        "cannot publish skill `{skill}`: file `{path}`: {reason}; rename it so every client on every platform can fetch and unpack it"
    )]
    UnportablePath {
        skill: String,
        path: String,
        reason: String,
    },
    #[error(
        "{path} changed while it was being published; run `skillpm publish` again once nothing is writing to it"
    )]
    Changed { path: PathBuf },
    #[error("cannot pack skill `{skill}` as {format}: {message}")]
    Pack {
        skill: String,
        format: &'static str,
        message: String,
    },
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "refusing to replace {out}: it is not empty and holds no site published by skillpm (no .well-known/agent-skills/index.json); choose an empty or new folder for --out"
    )]
    NotASite { out: PathBuf },
    #[error(
        "--out {out} and the skills folder {skills} overlap; publish into a folder outside the skills and the skills outside the site"
    )]
    Overlap { out: PathBuf, skills: PathBuf },
    #[error("cannot use the secret key {path}: {message}")]
    Key { path: PathBuf, message: String },
    #[error(
        "the secret key {path} is encrypted: put its password in the SKILLPM_KEY_PASSWORD environment variable"
    )]
    KeyNeedsPassword { path: PathBuf },
    #[error("signing the index failed: {0}")]
    Sign(String),
    #[error(
        "--version {requested} is lower than version {published} already published in {out}; clients that saw {published} refuse lower versions as a rollback; use --version {next} or higher"
    )]
    VersionRollback {
        requested: u64,
        published: u64,
        next: u64,
        out: PathBuf,
    },
    #[error(
        "--version {version} is already published in {out} with a different index; clients would take both as the same release; use --version {next}"
    )]
    VersionReused {
        version: u64,
        next: u64,
        out: PathBuf,
    },
    #[error("the expiry time {expires} is already past; choose a later --expires or --expires-at")]
    ExpiryPast { expires: String },
    #[error("{path} already exists; pass --force to overwrite it (the old key is lost)")]
    KeyExists { path: PathBuf },
    #[error(
        "refusing to publish skill `{skill}`: {file}:{line} holds what looks like a live secret ({excerpt}); nothing was written. Remove it from the file (and revoke it: it may have been exposed already), or leave the file out with .skillignore"
    )]
    Secret {
        skill: String,
        file: String,
        line: usize,
        excerpt: String,
    },
    #[error("cannot read the ignore rules {path}: {message}")]
    IgnoreRules { path: PathBuf, message: String },
}

impl PublishError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| PublishError::Io {
            action,
            path,
            source,
        }
    }
}

crate::classified!(PublishError);
impl Classify for PublishError {
    fn exit(&self) -> Exit {
        match self {
            PublishError::InvalidSkills { .. }
            | PublishError::UnportablePath { .. }
            | PublishError::Secret { .. } => Exit::Unsafe,
            PublishError::IgnoreRules { .. } => Exit::Usage,
            PublishError::Tree { source, .. } => source.exit(),
            PublishError::NotASite { .. }
            | PublishError::Overlap { .. }
            | PublishError::Key { .. }
            | PublishError::KeyNeedsPassword { .. }
            | PublishError::VersionRollback { .. }
            | PublishError::VersionReused { .. }
            | PublishError::ExpiryPast { .. }
            | PublishError::KeyExists { .. } => Exit::Usage,
            PublishError::Changed { .. }
            | PublishError::Pack { .. }
            | PublishError::Io { .. }
            | PublishError::Sign(_) => Exit::Other,
        }
    }
}
