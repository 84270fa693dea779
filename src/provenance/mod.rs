//! Provenance: proving every lock entry against what its declared source
//! signed, also offline (DESIGN §4, §7; docs/design-changes.md).
//!
//! `skills.lock` is committed and changes arrive in pull requests, so it is
//! input a stranger can write. Its digests say *which* bytes; this module
//! proves those bytes are the ones the source vouches for: the chain of
//! [`chain`], over index snapshots kept in the cache ([`snapshots`]) and the
//! record of what each artifact unpacked to ([`unpacked`]).

pub mod chain;
pub mod offline;
pub mod snapshots;
pub mod unpacked;

pub use chain::{Broken, Proof, ProveError, Prover, SignedBy, VouchedBy, versioned_url};
pub use offline::{declared_git_url, prove_offline};
pub use snapshots::{Snapshot, Snapshots};
pub use unpacked::Unpacked;
