//! The project lifecycle (docs/design.md#manifest-and-lock to #approval): `add`, `install`, `update`,
//! `outdated`, `remove`, `approve`, `disable`/`enable`, `list`, `verify`,
//! `policy check`.
//!
//! Every command opens a `session::Session` (project, manifest, lock, store), then
//! works in the same order: resolve or materialise content into the store,
//! get approval for exactly the tree digests that will be linked, place the
//! links, and only then write `skills.toml` and `skills.lock` (atomically).
//! A failure before the last step leaves the project as it was.

mod add;
mod add_all;
mod approval;
mod audit_gate;
mod install;
mod manage;
mod materialize;
mod place;
mod policy;
mod proof;
mod session;
mod status;
mod update;

pub use crate::placement::LinkChanges;
pub use add::{AddOptions, add};
pub use install::{InstallMode, InstallOptions, install};
pub use manage::{ApproveOptions, approve, disable, enable, remove};
pub use policy::policy_check;
pub use status::{list, verify, verify_provenance};
pub use update::{UpdateOptions, outdated, update};
