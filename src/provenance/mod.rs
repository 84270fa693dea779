//! Provenance: proving every lock entry against what its declared source
//! signed, also offline (docs/design.md#trust, #manifest-and-lock).
//!
//! `skills.lock` is committed and changes arrive in pull requests, so it is
//! input a stranger can write. Its digests say *which* bytes; this module
//! proves those bytes are the ones the source vouches for: the chain of
//! [`chain`], over index snapshots kept in the cache (`store::snapshots`) and the
//! record of what each artifact unpacked to (`store::unpacked`).

pub mod chain;
pub mod memo;
pub mod offline;

pub use chain::{Proof, ProveError, Prover};
pub use offline::prove_offline;
