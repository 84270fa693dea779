//! Source kinds (docs/sources.md, docs/architecture.md): where skills come
//! from, one module per kind, each taking the same steps:
//!
//! - **list**: what skills an opened source offers (`search`, `add --list`);
//! - **resolve**: asked names → candidates with version and digests, their
//!   content verified into the store;
//! - **fetch**: locked entries → their trees in the store, each hashing to
//!   the lock's `tree`;
//! - **prove**: a lock entry → its links of the provenance chain, or a
//!   refusal, online and offline.
//!
//! As in cargo, a declared source has one identity ([`id::SourceId`]: kind,
//! location, ref, folder), worked out once; [`id::SourceKind::module`] is the
//! one map from a kind to its module (a unit type implementing [`Kind`]),
//! whose `open` gives the opened source as a `Box<dyn` [`Source`]`>`.
//! [`load`] runs the steps for a command. The kinds: [`index`] (registries),
//! [`git`], [`folder`], [`mcp`] and [`oci`] (`oci::kind`). A kind module may
//! use the protocol libraries below and the shared modules here
//! ([`candidate`], [`proof`], [`workspace`], [`tokens`], [`location`]),
//! never another kind, [`id`] or [`load`].

pub mod candidate;
pub mod folder;
pub mod git;
pub mod id;
pub mod index;
pub mod load;
pub mod location;
pub mod mcp;
pub mod oci;
pub mod proof;
pub mod publisher;
pub mod tokens;
pub mod workspace;

use std::path::Path;

use crate::net::fetch::Fetcher;
use crate::printer::Printer;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::skill::discover::RepoDiscovery;
use candidate::{Candidate, Offer};
use proof::{Declared, Proof, ProveContext, ProveError};
use workspace::Workspace;

/// A source of one kind, opened: read once per run, then asked for offers
/// and candidates. Object-safe: [`Kind::open`] gives a `Box<dyn Source>`.
pub trait Source {
    /// **list**: the skills the source offers.
    fn offers(&self) -> Vec<Offer>;

    /// [`Source::offers`] of a source no longer needed (`add --list`): a
    /// kind with many entries moves their strings instead of copying them
    /// (docs/performance.md, the 50,000-skill index).
    fn into_offers(self: Box<Self>) -> Vec<Offer> {
        self.offers()
    }

    /// Where the source was read, for "found nothing" messages.
    fn looked_at(&self, decl: &SourceDecl) -> String;

    /// What discovery found but cannot offer (git and folder sources).
    fn discovery(&self) -> Option<&RepoDiscovery> {
        None
    }

    /// Whether [`Source::offers`] is everything the source has (an OCI
    /// namespace need not list its skills: the registry says "not found").
    fn lists_all(&self) -> bool {
        true
    }

    /// Whether the source names one skill itself (nothing to pick).
    fn is_one_skill(&self) -> bool {
        self.discovery()
            .is_some_and(|d| d.skills.len() == 1 && d.skills[0].path.is_empty())
    }

    /// **resolve**: candidates for `names`, one result per name (so
    /// `add --all` keeps every acceptable skill and reports the others).
    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>>;
}

/// The steps of one kind that need no opened source, on the kind's unit
/// type (docs/sources.md). Object-safe: the map `id::SourceKind::module`
/// gives each kind as a `&'static dyn Kind`.
pub trait Kind: Sync {
    /// Whether the location `at` (its text parsed, [`location::parse`]) is
    /// a source of this kind; `Some(reference)` when it is (the git ref it
    /// names, else `None`). Asked in `id::SourceKind::ALL`'s order: the
    /// first kind that recognizes it is the source's kind.
    fn recognizes(&self, at: &location::Written<'_>) -> anyhow::Result<Option<Option<String>>>;

    /// The lock `format`s this kind writes (how a lock entry names its kind).
    fn formats(&self) -> &'static [Format];

    /// Reads the source `decl` names (an index fetched and verified, a ref
    /// resolved and checked out, a folder walked, a server listed).
    fn open(&self, ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Box<dyn Source>>;

    /// Whether its [`Kind::open`] first waits on a server (an index's
    /// request): such a kind starts the audit's warm-up itself as it asks
    /// ([`Workspace::audit_ahead`]), since two threads compiling beside the
    /// way to the first request delayed it and everything after it; any
    /// other kind is warmed up as it is opened.
    fn asks_a_server_first(&self) -> bool {
        false
    }

    /// [`Kind::open`] for `add --list`, which asks the source for its
    /// offers and nothing else: a kind with many entries keeps only those
    /// (docs/performance.md, the 50,000-skill index).
    fn open_listing(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
    ) -> anyhow::Result<Box<dyn Source>> {
        self.open(ws, decl)
    }

    /// **fetch**: brings locked skills of this kind into the store, each
    /// hashing to its locked tree (exit 3 otherwise). The one place a kind
    /// downloads content for the lock.
    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()>;

    /// Whether a locked skill must be fetched again although its tree may
    /// be stored: its kind has no proof of it on this cache yet.
    fn needs_fetch(&self, _ws: &Workspace<'_>, _skill: &LockedSkill) -> anyhow::Result<bool> {
        Ok(false)
    }

    /// **prove**: the kind's links of the provenance chain for `entry`,
    /// filled into `proof`. `Ok(None)`: not provable without reading the
    /// source, which this run may not.
    fn prove(
        &self,
        cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        declared: &Declared,
        proof: Proof,
    ) -> Result<Option<Proof>, ProveError>;

    /// What the source offers now for each locked skill (`outdated`): an
    /// identity of the same kind the lock pins, and a version.
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>>;

    /// Whether its artifacts carry Sigstore bundles skillpm reads
    /// (docs/provenance.md#where-bundles-come-from); a source of a kind that
    /// does not and declares a publisher is refused (`load`).
    fn carries_bundles(&self) -> bool {
        false
    }

    /// **list** without a project (`search`): what the source offers.
    fn search(&self, net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult>;

    /// `source add`: the new source read as installs will read it (nothing
    /// under `--offline`).
    fn probe(&self, _net: &Net<'_>, _new: &NewSource<'_>) -> anyhow::Result<Probed> {
        Ok(Probed::default())
    }
}

/// What a source offers now for one locked skill: its identity (commit,
/// digest or tree; `None`: no longer offered) and version, or why that
/// skill alone cannot be checked (the others of its source still are).
pub type Latest = Result<(Option<String>, Option<String>), String>;

/// How a command without a project reaches sources (`search`, `source add`).
pub struct Net<'a> {
    pub ui: &'a Printer,
    pub offline: bool,
    pub allow_http: bool,
    /// The run's registry client (`None` under `--offline` for `source add`).
    pub fetcher: Option<&'a Fetcher>,
}

/// A source to list without a project (`search`): declared in skills.toml,
/// or given on the command line (then named by its text).
pub struct SearchTarget {
    pub decl: SourceDecl,
    /// Where relative paths start (the project root, or the working folder).
    pub base_dir: std::path::PathBuf,
    /// What to list: a kind may leave out what does not match as it reads
    /// (an index does, while it streams: docs/performance.md, the
    /// 50,000-skill index); [`load::list`] holds every kind's hits to it.
    pub query: Query,
}

/// What `search` looks for: text that a skill's name or description holds,
/// ignoring case (`None`: every skill).
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Lowercased.
    needle: Option<String>,
}

impl Query {
    pub fn new(text: Option<&str>) -> Query {
        Query {
            needle: text.map(str::to_lowercase),
        }
    }

    /// Whether a skill's name or description holds the query.
    pub fn matches(&self, name: &str, description: &str) -> bool {
        self.needle.as_deref().is_none_or(|n| {
            name.to_lowercase().contains(n) || description.to_lowercase().contains(n)
        })
    }

    /// Whether every skill matches.
    pub fn is_all(&self) -> bool {
        self.needle.is_none()
    }
}

/// What `source add` probes: the new declaration, the project, the
/// user's token bindings and the `--token-env` given.
pub struct NewSource<'a> {
    pub decl: &'a SourceDecl,
    pub root: &'a Path,
    pub user: &'a crate::net::UserTokens,
    pub token_env: Option<&'a str>,
}

/// What a probe found: an index's answer, or the commit a git ref names.
#[derive(Default)]
pub struct Probed {
    pub index: Option<IndexProbe>,
    pub commit: Option<String>,
}

/// What probing an index source found.
#[derive(Debug, serde::Serialize)]
pub struct IndexProbe {
    pub index_url: String,
    pub index_format: index::format::IndexFormat,
    pub skills: usize,
    /// Entries skipped or refused (see `search` for details).
    pub problems: usize,
    pub signer: Option<crate::trust::Signer>,
    /// Unsigned sources only: whether `index.json.minisig` exists (so a key could be pinned).
    pub signature_published: Option<bool>,
}

/// One skill a source offers, as `search` reports it.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Hit {
    pub source: String,
    pub name: String,
    pub description: String,
    pub version: Option<String>,
    /// `skill-md`, `archive`, `files` (a v0.1.0 file list), `git`, `folder` or `oci`.
    pub format: &'static str,
    /// `0.2.0`, `0.1.0`, or the kind (`git`, `folder`, `oci`).
    pub index_format: &'static str,
    /// The artifact digest the index pins; `null` for v0.1.0 file lists.
    pub digest: Option<String>,
    pub url: Option<String>,
    /// Key id of the signer, when the source pins keys.
    pub signed_by: Option<String>,
    /// Git sources: the commit the ref resolved to (what `add` would lock).
    pub commit: Option<String>,
    /// Git and folder sources: the skill's folder in the source (`null`: its root).
    pub subpath: Option<String>,
    /// Index entries: the entry's Sigstore bundle (`sigstore` URL), which
    /// `search` verifies for `digest` (docs/provenance.md).
    #[serde(skip)]
    pub bundle: Option<url::Url>,
    /// Who built it, as the entry's Sigstore bundle proves for the listed
    /// digest (docs/provenance.md#what-the-lock-records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<crate::trust::sigstore::Verified>,
    /// Why the entry's bundle does not hold (or is missing, when the source
    /// declares a publisher).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher_refused: Option<String>,
}

/// What `search` found in one source: its skills, and the entries an
/// index skipped or refused (each already warned about).
#[derive(Default)]
pub struct SearchResult {
    pub hits: Vec<Hit>,
    pub problems: Vec<index::format::EntryProblem>,
}

/// What discovery found in a git repository or a folder, as `search` hits
/// (`format`: `git` or `folder`; paths inside the source start at `subpath`).
pub fn found_hits(
    source: &str,
    format: &'static str,
    url: &str,
    subpath: Option<&str>,
    found: &RepoDiscovery,
) -> Vec<Hit> {
    (found.skills.iter())
        .map(|skill| Hit {
            source: source.to_owned(),
            name: skill.name.clone(),
            description: skill.description.clone(),
            format,
            index_format: format,
            url: Some(url.to_owned()),
            subpath: candidate::join_rel(subpath, &skill.path),
            ..Hit::default()
        })
        .collect()
}
