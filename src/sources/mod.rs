//! Source kinds (docs/sources.md, docs/architecture.md): where skills come
//! from, one module per kind, each taking the same steps ([`Kind`]):
//!
//! - **list**: what skills an opened source offers (`search`, `add --list`);
//! - **resolve**: asked names → candidates with version and digests, their
//!   content verified into the store;
//! - **fetch**: locked entries → their trees in the store, each hashing to
//!   the lock's `tree`;
//! - **prove**: a lock entry → its links of the provenance chain, or a
//!   refusal, online and offline.
//!
//! The kinds: [`index`] (registries: v0.1 file lists and v0.2 archives,
//! over HTTP and `file://`), [`git`] (git and GitHub), [`folder`] (a folder
//! on this machine), [`mcp`] (MCP servers) and [`oci`] (OCI registries,
//! `oci::kind`). A kind module may use the protocol libraries below
//! (`crate::git`, `crate::net::fetch`, the MCP client in `mcp/client.rs`, the index format in `index/format.rs`,
//! `crate::store`, the OCI client in `oci/`) and the shared modules here
//! ([`candidate`], [`proof`], [`workspace`], [`tokens`], [`id`]), never
//! another kind. [`load`] dispatches on `load::KindOf`: adding a kind is
//! one module and one arm there.

pub mod candidate;
pub mod folder;
pub mod git;
pub mod id;
pub mod index;
pub mod load;
pub mod mcp;
pub mod oci;
pub mod proof;
pub mod publisher;
pub mod tokens;
pub mod workspace;

use crate::project::lock::LockedSkill;
use crate::project::manifest::SourceDecl;
use candidate::{Candidate, Offer};
use proof::{Declared, Proof, ProveContext, ProveError};
use workspace::Workspace;

/// The steps every kind of source takes (docs/sources.md).
pub trait Kind {
    /// A source of this kind, opened: read once per run, then asked for
    /// offers and candidates.
    type Opened;

    /// Reads the source `decl` names (an index fetched and verified, a ref
    /// resolved and checked out, a folder walked, a server listed).
    fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Self::Opened>;

    /// **list**: the skills the opened source offers.
    fn offers(opened: &Self::Opened) -> Vec<Offer>;

    /// [`Kind::offers`] of a source no longer needed (`add --list`): a kind
    /// with many entries moves their strings instead of copying them
    /// (docs/performance.md, the 50,000-skill index).
    fn into_offers(opened: Self::Opened) -> Vec<Offer> {
        Self::offers(&opened)
    }

    /// Where the source was read, for "found nothing" messages.
    fn looked_at(decl: &SourceDecl, opened: &Self::Opened) -> String;

    /// What discovery found but cannot offer (git and folder sources).
    fn discovery(_opened: &Self::Opened) -> Option<&crate::skill::discover::RepoDiscovery> {
        None
    }

    /// Whether [`Kind::offers`] is everything the source has (an OCI
    /// namespace need not list its skills: the registry says "not found").
    fn lists_all(_opened: &Self::Opened) -> bool {
        true
    }

    /// Whether the source names one skill itself (nothing to pick).
    fn is_one_skill(opened: &Self::Opened) -> bool {
        Self::discovery(opened).is_some_and(|d| d.skills.len() == 1 && d.skills[0].path.is_empty())
    }

    /// **resolve**: candidates for `names`, one result per name (so
    /// `add --all` keeps every acceptable skill and reports the others).
    fn resolve(
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        opened: &Self::Opened,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>>;

    /// **fetch**: brings locked skills of one source into the store, each
    /// hashing to its locked tree (exit 3 otherwise). The one place a kind
    /// downloads content for the lock.
    fn fetch(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()>;

    /// Whether a locked skill must be fetched again although its tree may
    /// be stored: its kind has no proof of it on this cache yet.
    fn needs_fetch(_ws: &Workspace<'_>, _skill: &LockedSkill) -> anyhow::Result<bool> {
        Ok(false)
    }

    /// **prove**: the kind's links of the provenance chain for `entry`,
    /// filled into `proof`. `Ok(None)`: not provable without reading the
    /// source, which this run may not.
    fn prove(
        cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        declared: &Declared,
        proof: Proof,
    ) -> Result<Option<Proof>, ProveError>;

    /// What the source offers now for each locked skill (`outdated`): an
    /// identity of the same kind the lock pins, and a version.
    fn latest(
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>>;
}

/// What a source offers now for one locked skill: its identity (commit,
/// digest or tree; `None`: no longer offered) and version.
pub type Latest = (Option<String>, Option<String>);
