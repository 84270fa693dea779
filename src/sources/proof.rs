//! What a kind's **prove** step works with (docs/sources.md): the proof a
//! lock entry earns link by link, the errors that refuse it, and the
//! [`ProveContext`] one run shares between entries (the cache's records and
//! snapshots, the HTTP client made on first need, each kind's memo). The
//! chain's shape (which links in which order, and the signer record every
//! kind ends with) is `crate::provenance`'s; each kind proves its own links.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

use serde::Serialize;

use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::git::{GitError, GitOptions};
use crate::net::fetch::Fetcher;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::sources::index::resolve::{IndexSource, SourceError};
use crate::store::snapshots::Snapshots;
use crate::store::unpacked::Unpacked;

/// A link of the chain that does not hold (exit 3).
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "{skill}: {what}\n  run `skillpm update {skill}` to re-resolve it from its source, or review the change to skills.lock that brought it"
)]
pub struct Broken {
    pub skill: String,
    /// Which link: `source`, `index`, `snapshot`, `signer`, `entry`, `url`,
    /// `artifact`, `tree`, `repository`.
    pub link: &'static str,
    pub what: String,
}

crate::classified!(Broken => Integrity);

#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    #[error(transparent)]
    Broken(#[from] Broken),
    /// The source could not be read to prove an entry (network, offline
    /// without a cached copy, a refused index): its own exit code.
    #[error("cannot read source `{source_name}` to prove `{skill}`: {cause}")]
    Source {
        skill: String,
        source_name: String,
        #[source]
        cause: Box<SourceError>,
    },
    /// A git repository could not be read to check the ref: its own exit code.
    #[error(
        "{skill}: cannot check commit {commit} against its repository: {cause}\n  run `skillpm update {skill}` to move to a commit the declared ref holds"
    )]
    Repository {
        skill: String,
        commit: String,
        cause: Box<GitError>,
    },
    /// A git commit whose ref could not be checked offline (exit 3).
    #[error(
        "{skill}: cannot show offline that commit {commit} is on `{reference}` of {url}: {cause}\n  run `skillpm install --locked` (online) to check it against the repository; {hint}",
        hint = crate::trust::record_key::CI_HINT
    )]
    RefUnknown {
        skill: String,
        commit: String,
        reference: String,
        url: String,
        cause: String,
    },
    /// Not provable from the cache alone (only provers without a fetcher).
    #[error(
        "{skill}: its index snapshot is not in the cache; `skillpm install` proves and keeps it"
    )]
    Unproven { skill: String },
}

impl Classify for ProveError {
    fn exit(&self) -> Exit {
        match self {
            ProveError::Broken(b) => b.exit(),
            ProveError::Source { cause, .. } => cause.exit(),
            ProveError::Unproven { .. } => Exit::Locked,
            ProveError::RefUnknown { .. } => Exit::Integrity,
            ProveError::Repository { cause, .. } => cause.exit(),
        }
    }
}
crate::classified!(ProveError);

/// Which index vouched for an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VouchedBy {
    /// The snapshot the lock names, from the cache.
    Snapshot,
    /// The versioned snapshot the registry keeps (`index.<version>.json`).
    VersionedSnapshot,
    /// The source's current index (the lock's snapshot is not available).
    CurrentIndex,
}

/// The verified signature over the vouching index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedBy {
    pub key_id: String,
    pub version: u64,
    pub expires: Option<String>,
}

/// How a git commit was shown to be on its declared ref.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefProof {
    /// The declared ref (`HEAD`: the default branch).
    pub reference: String,
    /// The commit the ref names.
    pub tip: String,
    /// `remote` (read now), `cache` (the cached clone's refs, offline) or
    /// `record` (an earlier online proof on this machine, offline).
    pub by: &'static str,
}

/// A proven chain, link by link (`verify --provenance --json` prints it).
#[derive(Debug, Clone, Serialize)]
pub struct Proof {
    pub skill: String,
    pub source: String,
    /// The declared source's location, as skills.toml has it.
    pub source_url: String,
    pub format: Format,
    /// Index sources: the index URL and the digest of the bytes that vouch.
    pub index: Option<String>,
    pub index_digest: Option<Digest>,
    pub vouched_by: Option<VouchedBy>,
    /// `None`: the source pins no key (`unsigned`).
    pub signed: Option<SignedBy>,
    pub url: Option<String>,
    pub artifact: Option<Digest>,
    pub commit: Option<String>,
    /// Git: the declared ref the commit was found on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_ref: Option<RefProof>,
    pub tree: Digest,
    /// Whether the artifact (or git commit) → tree link was read from the
    /// cache's record; `false` means the content must be unpacked (checked
    /// out) again and hash to `tree`.
    pub tree_recorded: bool,
    pub approved: bool,
    /// Who built the artifact, as its Sigstore bundle proved this run
    /// (sources declaring `identity`; `crate::sources::publisher`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<crate::trust::sigstore::Verified>,
}

/// A declared source, worked out once per run (`sources::load::declared`):
/// its repository, folder and ref when it is a git source, else the source
/// (registry) itself.
pub struct Declared {
    pub git_url: Option<String>,
    /// For a git source: the folder of the repository its skills come from.
    pub git_folder: Option<String>,
    /// For a git source: the ref it declares (`None`: the default branch).
    pub git_ref: Option<String>,
    pub source: Option<IndexSource>,
}

/// Builds the client a prover reads sources with; `None` when it cannot.
pub type MakeFetcher<'a> = Box<dyn Fn() -> Option<Fetcher> + 'a>;

/// Builds the git options a source is read with (token, offline).
pub type GitOptionsFor<'a> = Box<dyn Fn(&SourceDecl) -> Option<GitOptions> + 'a>;

/// What one run's proofs share.
pub struct ProveContext<'a> {
    /// The project's folder (relative lock paths start here).
    pub root: &'a Path,
    pub cache_root: PathBuf,
    pub snapshots: Snapshots,
    pub unpacked: Unpacked,
    /// Makes the HTTP client on first need (`None`: prove from the cache
    /// alone, never read a source). Lazy, so a run whose snapshots are all
    /// cached never builds a client (a no-op `install --frozen` stays cheap).
    make_fetcher: Option<MakeFetcher<'a>>,
    fetcher: std::cell::OnceCell<Option<Fetcher>>,
    /// Git options per declared source (`None`: offline, from the cache).
    pub git_options: Option<GitOptionsFor<'a>>,
    pub now: SystemTime,
    /// Each kind's memo of work done this run, by (kind, key).
    memo: HashMap<(&'static str, String), Rc<dyn Any>>,
}

impl<'a> ProveContext<'a> {
    pub fn new(root: &'a Path, cache_root: &Path, make_fetcher: Option<MakeFetcher<'a>>) -> Self {
        ProveContext {
            root,
            cache_root: cache_root.to_owned(),
            snapshots: Snapshots::in_cache(cache_root),
            unpacked: Unpacked::in_cache(cache_root),
            make_fetcher,
            fetcher: std::cell::OnceCell::new(),
            git_options: None,
            now: SystemTime::now(),
            memo: HashMap::new(),
        }
    }

    /// The HTTP client, made on first need; `None` when this run may not
    /// read sources (or the client cannot be made).
    pub fn fetcher(&self) -> Option<&Fetcher> {
        let make = self.make_fetcher.as_ref()?;
        self.fetcher.get_or_init(make).as_ref()
    }

    /// What `kind` remembered under `key` this run.
    pub fn recalled<T: 'static>(&self, kind: &'static str, key: &str) -> Option<Rc<T>> {
        let found = self.memo.get(&(kind, key.to_owned()))?.clone();
        found.downcast::<T>().ok()
    }

    /// Remembers `value` for `kind` under `key` for the rest of the run.
    pub fn remember<T: 'static>(&mut self, kind: &'static str, key: String, value: Rc<T>) {
        self.memo.insert((kind, key), value);
    }
}

/// The lock's `signer` must be what was verified (or absent).
pub fn check_signer_record(
    entry: &LockedSkill,
    signed: Option<&SignedBy>,
) -> Result<(), ProveError> {
    let Some(claimed) = &entry.signer else {
        return Ok(());
    };
    let what = match signed {
        Some(s) if s.key_id.eq_ignore_ascii_case(claimed) => return Ok(()),
        Some(s) => format!(
            "skills.lock says key {claimed} signed its index, but the index that vouches for it is signed by key {}",
            s.key_id
        ),
        None => format!(
            "skills.lock says key {claimed} signed its index, but source `{}` pins no key and nothing was verified",
            entry.source
        ),
    };
    Err(broken(entry, "signer", what))
}

/// A broken `link` of `entry`'s chain, saying `what` does not hold.
pub fn broken(entry: &LockedSkill, link: &'static str, what: String) -> ProveError {
    Broken {
        skill: entry.name.clone(),
        link,
        what,
    }
    .into()
}

/// The lock's `url` must be the declared source's, to the letter (folder
/// and MCP sources record it verbatim).
pub fn declared_url(
    entry: &LockedSkill,
    decl: &SourceDecl,
    reads: &str,
    kind: &str,
) -> Result<(), ProveError> {
    if entry.url.as_deref() == Some(decl.url.as_str()) {
        return Ok(());
    }
    Err(broken(
        entry,
        "url",
        format!(
            "skills.lock {reads} {}, but source `{}` is {kind}{}",
            entry.url.as_deref().unwrap_or("(none)"),
            entry.source,
            decl.url
        ),
    ))
}

/// The lock's `subpath` is a plain relative folder inside `folder`, the
/// folder of the source its skills are looked for in (`None`: anywhere in
/// the source): a lock cannot move a skill to another folder of it.
pub fn check_within(entry: &LockedSkill, folder: Option<&str>) -> Result<(), ProveError> {
    let sub = entry.subpath.as_deref().unwrap_or("");
    let clean = crate::git::normalize_folder(sub).is_ok_and(|n| n.as_deref().unwrap_or("") == sub);
    let folder = folder
        .map(|f| f.trim_matches('/'))
        .filter(|f| !f.is_empty());
    let within = folder.is_none_or(|f| sub == f || sub.starts_with(&format!("{f}/")));
    if clean && within {
        return Ok(());
    }
    Err(broken(
        entry,
        "entry",
        format!(
            "skills.lock reads it from `{sub}`, which is not a plain folder inside source `{}`{}",
            entry.source,
            folder
                .map(|f| format!(" (its skills are in `{f}`)"))
                .unwrap_or_default()
        ),
    ))
}
