//! skillpm's lowest layer (docs/architecture.md): what every other module
//! stands on and which names none of them. A crate of its own, so that the
//! compiler, not a test, keeps its arrows pointing down. The `skillpm` crate
//! re-exports each module under its old name (`skillpm::digest`, …).

#[doc(hidden)]
pub use inventory as __inventory;

pub mod cache;
pub mod digest;
pub mod error;
pub mod escape;
pub mod fs;
pub mod names;
