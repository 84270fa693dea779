//! Stable exit codes (DESIGN §11) and the trait every library error implements
//! so the binary edge can map any failure to its code without string matching.

use std::fmt;

/// The process exit codes skillpm promises to scripts and CI. Never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    Success = 0,
    Other = 1,
    Usage = 2,
    /// Digest, signature, tree or rollback check failed; drift found by `verify`.
    Integrity = 3,
    /// Network or source unreachable, or a malformed index.
    Network = 4,
    /// Unsafe or invalid content refused (archive, path, frontmatter).
    Unsafe = 5,
    /// Lock out of date under `--locked`/`--frozen`, or missing from the cache under `--offline`.
    Locked = 6,
    /// Approval required but not given.
    Approval = 7,
    /// Named skill or source not found.
    NotFound = 8,
}

impl Exit {
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// Implemented by every error type of the library so that `main` can find the
/// exit code of the first classified error in an `anyhow` chain.
pub trait Classify {
    fn exit(&self) -> Exit;
}

/// An error raised by the operations layer itself (not by a library module):
/// a message that already says what went wrong and what to do, plus its code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct OpError {
    pub exit: Exit,
    pub message: String,
}

impl OpError {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Self {
            exit,
            message: message.into(),
        }
    }
}

impl Classify for OpError {
    fn exit(&self) -> Exit {
        self.exit
    }
}
