//! Stable exit codes (docs/design.md#exit-codes) and the trait every library error implements
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

/// In `--json` reports an exit code is its number.
impl serde::Serialize for Exit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.code())
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// Implemented by every error type of the library so that `main` can find the
/// exit code of the first classified error in an `anyhow` chain. Implement it
/// next to the type with an exhaustive `match` (no `_` arm, so a new variant
/// cannot compile without a code) and register the type with [`classified!`];
/// a type with one code for every value takes `classified!(Type => Variant)`.
pub trait Classify {
    fn exit(&self) -> Exit;
}

/// One registered error type: finds that type in a type-erased cause.
#[doc(hidden)]
pub struct Classifier {
    pub type_name: &'static str,
    /// The file that registered it: where the type is defined.
    pub file: &'static str,
    pub classify: fn(&(dyn std::error::Error + 'static)) -> Option<Exit>,
}

inventory::collect!(Classifier);

/// Registers an error type that implements [`Classify`], where the type is
/// defined, so [`exit_code_of`] finds it in any `anyhow` chain. The test
/// `every_error_type_is_classified` fails when a `thiserror` type in either crate
/// is not registered.
/// `classified!(Type => Variant)` also implements [`Classify`] for a type
/// whose every value has the one exit code `Exit::Variant`.
#[macro_export]
macro_rules! classified {
    ($ty:ty => $exit:ident) => {
        impl $crate::error::Classify for $ty {
            fn exit(&self) -> $crate::error::Exit {
                $crate::error::Exit::$exit
            }
        }
        $crate::classified!($ty);
    };
    ($ty:ty) => {
        $crate::__inventory::submit! {
            $crate::error::Classifier {
                type_name: stringify!($ty),
                file: file!(),
                classify: |cause| {
                    cause
                        .downcast_ref::<$ty>()
                        .map($crate::error::Classify::exit)
                },
            }
        }
    };
}

/// The code of one cause, if its type is a registered library error.
pub fn exit_of_cause(cause: &(dyn std::error::Error + 'static)) -> Option<Exit> {
    inventory::iter::<Classifier>
        .into_iter()
        .find_map(|c| (c.classify)(cause))
}

/// The code of the outermost classified error in the chain, or 1 (other).
pub fn exit_code_of(err: &anyhow::Error) -> Exit {
    err.chain().find_map(exit_of_cause).unwrap_or(Exit::Other)
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
crate::classified!(OpError);

/// The `Err` of a refusal: its exit code and message.
pub fn fail<T>(exit: Exit, message: impl Into<String>) -> anyhow::Result<T> {
    Err(OpError::new(exit, message).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outermost_classified_cause_decides() {
        let inner = OpError::new(Exit::NotFound, "no such skill");
        let err = anyhow::Error::new(inner).context("while adding");
        assert_eq!(exit_code_of(&err), Exit::NotFound);
        let approval = anyhow::Error::new(OpError::new(Exit::Approval, "approve first"));
        assert_eq!(exit_code_of(&approval), Exit::Approval);
        assert_eq!(exit_code_of(&anyhow::anyhow!("plain")), Exit::Other);
    }
}
