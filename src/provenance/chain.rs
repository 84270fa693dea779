//! The chain a lock entry must prove before anything of it is linked:
//!
//! ```text
//! declared source (skills.toml) → index snapshot (bytes, signed by a pinned key
//! when the source has keys) → the entry for that name → its artifact digest and
//! URL → the tree that artifact unpacked to → the approval
//! ```
//!
//! No lock field is trusted on its own. `index-digest` only says where to
//! look; the snapshot found there is verified again, and when it is missing
//! the source's current index (then the versioned snapshot the registry
//! keeps, `index.<version>.json`) must vouch for the same artifact instead.
//! `signer` is a record: what is reported as signed is what was verified.
//!
//! Cost: one signature check and one index parse per distinct snapshot (the
//! [`Prover`] memoises them), then a lookup per skill.

use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;
use std::time::SystemTime;

use serde::Serialize;
use url::Url;

use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::fetch::Fetcher;
use crate::git::{GitError, GitOptions, GitSpec};
use crate::index::{ArtifactType, EntryContent, Index, parse_index, paths};
use crate::project::lock::{Format, LockedSkill, lock_text_to_url, same_lock_url};
use crate::project::manifest::{Manifest, SourceDecl};
use crate::source::{self, Source, SourceError, SourceSpec};
use crate::store::snapshots::{Snapshot, Snapshots};
use crate::store::unpacked::{Records, Unpacked};
use crate::trust::{self, TrustError};

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

impl Classify for Broken {
    fn exit(&self) -> Exit {
        Exit::Integrity
    }
}
crate::classified!(Broken);

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
        "{skill}: cannot show offline that commit {commit} is on `{reference}` of {url}: {cause}\n  run `skillpm install --locked` (online) to check it against the repository"
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

/// The record kind of git ref proofs (`state/proofs/git-ref/`).
const GIT_REF_RECORDS: &str = "git-ref";

fn ref_record_key(url: &str, reference: Option<&str>, commit: &str) -> String {
    format!("{url}\n{}\n{commit}", reference.unwrap_or("HEAD"))
}

/// Records that `commit` was found on `reference` of `url` (at `tip`) by an
/// online run, so an offline run on this machine may rely on it.
pub fn record_on_ref(
    cache_root: &Path,
    url: &str,
    reference: Option<&str>,
    commit: &str,
    tip: &str,
) {
    let records = Records::proofs(cache_root, GIT_REF_RECORDS);
    let _ = records.put(&ref_record_key(url, reference, commit), tip);
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
}

/// A declared source, resolved once per run: its repository when it is a
/// git source, else the source.
struct Declared {
    git_url: Option<String>,
    /// For a git source: the folder of the repository its skills come from.
    git_folder: Option<String>,
    /// For a git source: the ref it declares (`None`: the default branch).
    git_ref: Option<String>,
    source: Option<Source>,
}

/// A verified index, shared by every entry it vouches for.
struct Voucher {
    digest: Digest,
    index: Index,
    signed: Option<SignedBy>,
    by: VouchedBy,
}

/// Builds the client a prover reads sources with; `None` when it cannot.
pub type MakeFetcher<'a> = Box<dyn Fn() -> Option<Fetcher> + 'a>;

/// Proves lock entries. Build one per command and reuse it for every entry.
pub struct Prover<'a> {
    root: &'a Path,
    manifest: &'a Manifest,
    snapshots: Snapshots,
    unpacked: Unpacked,
    /// Makes the HTTP client on first need (`None`: prove from the cache
    /// alone, never read a source). Lazy, so a run whose snapshots are all
    /// cached never builds a client (a no-op `install --frozen` stays cheap).
    make_fetcher: Option<MakeFetcher<'a>>,
    fetcher: std::cell::OnceCell<Option<Fetcher>>,
    vouchers: HashMap<String, Rc<Voucher>>,
    sources: HashMap<String, Rc<Declared>>,
    /// Git options per declared source (`None`: offline, from the cache).
    git_options: Option<GitOptionsFor<'a>>,
    cache_root: std::path::PathBuf,
    /// Ref proofs made this run, by (url, ref, commit).
    refs: HashMap<String, RefProof>,
    now: SystemTime,
}

/// Builds the git options a source is read with (token, offline).
pub type GitOptionsFor<'a> = Box<dyn Fn(&SourceDecl) -> Option<GitOptions> + 'a>;

impl<'a> Prover<'a> {
    pub fn new(
        project_root: &'a Path,
        manifest: &'a Manifest,
        cache_root: &Path,
        make_fetcher: Option<MakeFetcher<'a>>,
    ) -> Self {
        Prover {
            root: project_root,
            manifest,
            snapshots: Snapshots::in_cache(cache_root),
            unpacked: Unpacked::in_cache(cache_root),
            make_fetcher,
            fetcher: std::cell::OnceCell::new(),
            vouchers: HashMap::new(),
            sources: HashMap::new(),
            git_options: None,
            cache_root: cache_root.to_owned(),
            refs: HashMap::new(),
            now: SystemTime::now(),
        }
    }

    /// Reads git sources with these options (online when they say so);
    /// without, git refs are checked offline against the cache.
    pub fn with_git(mut self, options: GitOptionsFor<'a>) -> Self {
        self.git_options = Some(options);
        self
    }

    /// Proves each entry; one this prover could not prove without reading
    /// its source is `ProveError::Unproven`.
    pub fn prove_all(&mut self, entries: &[&LockedSkill]) -> Vec<Result<Proof, ProveError>> {
        (entries.iter())
            .map(|e| {
                self.prove(e)?.ok_or_else(|| ProveError::Unproven {
                    skill: e.name.clone(),
                })
            })
            .collect()
    }

    /// Proves one entry. `Ok(None)`: it could not be proven from the cache
    /// and this prover may not read sources (only `list` builds such a one).
    pub fn prove(&mut self, entry: &LockedSkill) -> Result<Option<Proof>, ProveError> {
        let Some(decl) = self.manifest.source(&entry.source) else {
            return Err(broken(
                entry,
                "source",
                format!(
                    "skills.lock says it comes from source `{}`, which skills.toml does not declare",
                    entry.source
                ),
            ));
        };
        let declared = self.declared(decl).map_err(|cause| ProveError::Source {
            skill: entry.name.clone(),
            source_name: entry.source.clone(),
            cause: Box::new(cause),
        })?;
        let mut proof = Proof {
            skill: entry.name.clone(),
            source: entry.source.clone(),
            source_url: decl.url.clone(),
            format: entry.format,
            index: entry.index.clone(),
            index_digest: None,
            vouched_by: None,
            signed: None,
            url: entry.url.clone(),
            artifact: entry.artifact,
            commit: entry.commit.clone(),
            git_ref: None,
            tree: entry.tree,
            tree_recorded: false,
            approved: entry.is_approved(),
        };
        match entry.format {
            Format::Git => {
                proof.tree_recorded = self.check_git(entry, decl, &declared)?;
                proof.git_ref = Some(self.check_ref(entry, decl, &declared)?);
            }
            Format::Path => check_folder(entry, decl)?,
            Format::Mcp => check_mcp(entry, decl)?,
            Format::Oci => {
                proof.tree_recorded = self.check_oci(entry, decl)?;
            }
            Format::Archive | Format::SkillMd | Format::Files => {
                return self.prove_indexed(entry, decl, &declared, proof);
            }
        }
        self.check_signer_record(entry, None)?;
        Ok(Some(proof))
    }

    /// The git links: the lock names the declared repository and a full
    /// commit, and the cache's record of that commit (if any) holds the
    /// locked tree. Returns whether that record was there.
    fn check_git(
        &self,
        entry: &LockedSkill,
        decl: &SourceDecl,
        source: &Declared,
    ) -> Result<bool, ProveError> {
        let Some(declared) = source.git_url.as_deref() else {
            return Err(broken(
                entry,
                "repository",
                format!(
                    "skills.lock pins it to a git commit, but source `{}` ({}) is an index",
                    entry.source, decl.url
                ),
            ));
        };
        if entry.url.as_deref() != Some(declared) {
            return Err(broken(
                entry,
                "repository",
                format!(
                    "skills.lock fetches it from repository {}, but source `{}` is {declared}",
                    entry.url.as_deref().unwrap_or("(none)"),
                    entry.source
                ),
            ));
        }
        if entry.commit.as_deref().is_none_or(|c| c.len() < 40) {
            return Err(broken(
                entry,
                "repository",
                "skills.lock pins no full commit id for it".into(),
            ));
        }
        check_within(entry, source.git_folder.as_deref())?;
        let commit = entry.commit.as_deref().unwrap_or_default();
        let key = Unpacked::git_key(declared, commit, entry.subpath.as_deref());
        match self.unpacked.tree_of(&key) {
            Some(tree) if tree != entry.tree => Err(broken(
                entry,
                "tree",
                format!(
                    "commit {commit} of {declared} holds tree {tree}, but skills.lock says tree {}",
                    entry.tree
                ),
            )),
            Some(_) => Ok(true),
            None => Ok(false),
        }
    }

    /// The OCI links (docs/hosting.md): declared source → manifest digest
    /// (the lock's `url` names a repository inside the declared namespace, or
    /// the declared repository, at a sha256 digest) → layer digest (the
    /// lock's `artifact`; the manifest was checked to list it when it was
    /// pulled) → tree (the cache's record of what that layer unpacked to,
    /// when there is one). Returns whether that record was there.
    fn check_oci(&self, entry: &LockedSkill, decl: &SourceDecl) -> Result<bool, ProveError> {
        use crate::sources::oci::OciRef;
        let declared = OciRef::parse(&decl.url).map_err(|reason| {
            broken(
                entry,
                "source",
                format!(
                    "skills.lock pins an OCI artifact, but source `{}` ({}) is not an OCI reference: {reason}",
                    entry.source, decl.url
                ),
            )
        })?;
        let pinned = entry.url.as_deref().and_then(|u| OciRef::parse(u).ok());
        let Some(pinned) = pinned.filter(|p| p.digest.is_some() && p.tag.is_none()) else {
            return Err(broken(
                entry,
                "manifest",
                format!(
                    "skills.lock gives it the OCI reference {}, which pins no manifest digest",
                    entry.url.as_deref().unwrap_or("(none)")
                ),
            ));
        };
        let inside = match declared.tag.is_some() || declared.digest.is_some() {
            true => declared.repo() == pinned.repo(),
            false => declared.repo() == pinned.repo() || declared.contains(&pinned),
        };
        if !inside {
            return Err(broken(
                entry,
                "manifest",
                format!(
                    "skills.lock pulls it from {pinned}, which is not in source `{}` ({})",
                    entry.source, decl.url
                ),
            ));
        }
        if let (Some(want), Some(digest)) = (declared.digest, pinned.digest)
            && want != digest
        {
            return Err(broken(
                entry,
                "manifest",
                format!(
                    "source `{}` pins manifest {want}, but skills.lock pins {digest}",
                    entry.source
                ),
            ));
        }
        let Some(layer) = entry.artifact else {
            return Err(broken(
                entry,
                "layer",
                "skills.lock pins no layer digest for it".into(),
            ));
        };
        match self.unpacked.tree_of(&layer) {
            Some(tree) if tree != entry.tree => Err(broken(
                entry,
                "tree",
                format!(
                    "layer {layer} unpacks to tree {tree}, but skills.lock says tree {}",
                    entry.tree
                ),
            )),
            Some(_) => Ok(true),
            None => Ok(false),
        }
    }

    /// The ref link of a git entry: the locked commit is on the ref the
    /// source declares (`git::prove_on_ref`). Online the repository is read
    /// now; offline an earlier online proof on this machine (an
    /// authenticated record) or the cached clone's refs must show it, else
    /// the entry is refused naming `install --locked`.
    fn check_ref(
        &mut self,
        entry: &LockedSkill,
        decl: &SourceDecl,
        source: &Declared,
    ) -> Result<RefProof, ProveError> {
        let url = source.git_url.clone().unwrap_or_default();
        let commit = entry
            .commit
            .clone()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let reference = source.git_ref.as_deref();
        let key = ref_record_key(&url, reference, &commit);
        if let Some(done) = self.refs.get(&key) {
            return Ok(done.clone());
        }
        let options = match &self.git_options {
            Some(make) => make(decl),
            None => None,
        }
        .unwrap_or_else(|| GitOptions {
            cache_dir: self.cache_root.join(crate::git::CACHE_SUBDIR),
            offline: true,
            github: crate::git::GitHubOptions::from_env(
                crate::source::bound_token_env(decl).as_deref(),
            ),
            limits: Default::default(),
            allow_http: false,
        });
        let records = Records::proofs(&self.cache_root, GIT_REF_RECORDS);
        let shown = reference.unwrap_or("HEAD").to_owned();
        // An earlier proof by this user (authenticated) stands in every
        // mode: the commit was on the ref when it was checked, and a later
        // rewrite upstream does not make an honest lock a forged one.
        let result = if let Some(tip) = records.get(&key) {
            Ok(RefProof {
                reference: shown,
                tip,
                by: "record",
            })
        } else {
            let spec = GitSpec::new(&url, reference, None);
            match spec.and_then(|spec| crate::git::prove_on_ref(&spec, &commit, &options)) {
                Ok(on) => {
                    if !options.offline {
                        let _ = records.put(&key, &on.tip);
                    }
                    Ok(RefProof {
                        reference: on.reference,
                        tip: on.tip,
                        by: if options.offline { "cache" } else { "remote" },
                    })
                }
                Err(e @ GitError::NotOnRef { .. }) => Err(broken(entry, "ref", e.to_string())),
                // Nothing of it is cached (neither clone nor content): the
                // install could not proceed offline anyway; say so as before.
                Err(cause @ GitError::Offline { .. })
                    if !self
                        .cache_root
                        .join(crate::cache::layout::STORE)
                        .join(entry.tree.file_name())
                        .is_dir() =>
                {
                    Err(ProveError::Repository {
                        skill: entry.name.clone(),
                        commit: commit.clone(),
                        cause: Box::new(cause),
                    })
                }
                Err(e) if options.offline => Err(ProveError::RefUnknown {
                    skill: entry.name.clone(),
                    commit: commit.clone(),
                    reference: shown,
                    url: url.clone(),
                    cause: e.to_string(),
                }),
                Err(cause) => Err(ProveError::Repository {
                    skill: entry.name.clone(),
                    commit: commit.clone(),
                    cause: Box::new(cause),
                }),
            }
        };
        if let Ok(proof) = &result {
            self.refs.insert(key, proof.clone());
        }
        result
    }

    /// The index links: the lock's index is one the declared source
    /// publishes, a verified (signed, when pinned) copy of it vouches, and
    /// the entry it lists is the locked one. `Ok(None)`: not provable
    /// without reading the source, which this prover may not.
    fn prove_indexed(
        &mut self,
        entry: &LockedSkill,
        decl: &SourceDecl,
        declared: &Declared,
        mut proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        if declared.git_url.is_some() {
            return Err(broken(
                entry,
                "index",
                format!(
                    "skills.lock says it comes from an index, but source `{}` ({}) is a git repository",
                    entry.source, decl.url
                ),
            ));
        }
        let Some(source) = &declared.source else {
            return Ok(None);
        };
        let index_url = entry
            .index
            .as_deref()
            .and_then(|t| lock_text_to_url(self.root, t))
            .ok_or_else(|| {
                broken(
                    entry,
                    "index",
                    "skills.lock gives no usable index URL".into(),
                )
            })?;
        if !(source.spec.candidates().iter()).any(|c| same_lock_url(c, &index_url)) {
            return Err(broken(
                entry,
                "index",
                format!(
                    "skills.lock reads its index from {index_url}, which is not where source `{}` ({}) publishes one",
                    entry.source, decl.url
                ),
            ));
        }
        let Some(voucher) = self.voucher(entry, source, &index_url)? else {
            return Ok(None);
        };
        self.check_signer_record(entry, voucher.signed.as_ref())?;
        proof.tree_recorded = self.check_listed(entry, &voucher)?;
        proof.index_digest = Some(voucher.digest);
        proof.vouched_by = Some(voucher.by);
        proof.signed = voucher.signed.clone();
        Ok(Some(proof))
    }

    /// The entry links: the vouching index lists the skill in the locked
    /// format, at the locked URL, with the locked artifact digest, and the
    /// cache's record of that artifact (if any) unpacks to the locked tree.
    /// Returns whether that record was there.
    fn check_listed(&self, entry: &LockedSkill, voucher: &Voucher) -> Result<bool, ProveError> {
        let vouching = describe(voucher, &entry.source);
        let listed = voucher.index.entry(&entry.name).ok_or_else(|| {
            broken(
                entry,
                "entry",
                format!("{vouching} lists no skill named `{}`", entry.name),
            )
        })?;
        let lock_url = entry
            .url
            .as_deref()
            .and_then(|t| lock_text_to_url(self.root, t));
        match (&listed.content, entry.format) {
            (
                EntryContent::Artifact {
                    url,
                    digest,
                    artifact,
                },
                Format::Archive | Format::SkillMd,
            ) => self.check_artifact(entry, &vouching, lock_url.as_ref(), url, digest, artifact),
            (EntryContent::Files { files }, Format::Files) => {
                let folder =
                    paths::file_url(&paths::index_dir(&voucher.index.url), &entry.name, "");
                if !lock_url.is_some_and(|u| same_lock_url(&u, &folder)) {
                    return Err(broken(
                        entry,
                        "url",
                        format!(
                            "skills.lock reads its files from {}, but {vouching} serves them at {folder}",
                            entry.url.as_deref().unwrap_or("(none)")
                        ),
                    ));
                }
                check_file_list(entry, &vouching, files, &self.unpacked)
            }
            _ => Err(broken(
                entry,
                "entry",
                format!(
                    "{vouching} publishes it as `{}`, but skills.lock says `{}`",
                    listed.format_label(),
                    entry.format.as_str()
                ),
            )),
        }
    }

    /// What a declared source is, worked out once per run.
    fn declared(&mut self, decl: &SourceDecl) -> Result<Rc<Declared>, SourceError> {
        if let Some(d) = self.sources.get(&decl.name) {
            return Ok(d.clone());
        }
        let (git_url, git_folder, git_ref) = match super::declared::declared_git(decl, self.root) {
            Some(g) => (Some(g.url), g.folder, g.reference),
            None => (None, None, None),
        };
        let source = match git_url {
            Some(_) => None,
            None => Some(Source::from_decl(decl, self.root)?),
        };
        let d = Rc::new(Declared {
            git_url,
            git_folder,
            git_ref,
            source,
        });
        self.sources.insert(decl.name.clone(), d.clone());
        Ok(d)
    }

    /// The lock's `signer` must be what was verified (or absent).
    fn check_signer_record(
        &self,
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

    /// The verified index that vouches for `entry`: the snapshot it names,
    /// else the source's current index or the registry's versioned snapshot.
    fn voucher(
        &mut self,
        entry: &LockedSkill,
        source: &Source,
        index_url: &Url,
    ) -> Result<Option<Rc<Voucher>>, ProveError> {
        let memo_key = format!(
            "{}\n{index_url}\n{:?}\n{:?}",
            entry.source, entry.index_digest, entry.index_version
        );
        if let Some(v) = self.vouchers.get(&memo_key) {
            return Ok(Some(v.clone()));
        }
        let found = self.find_voucher(entry, source, index_url)?;
        if let Some(v) = &found {
            self.vouchers.insert(memo_key, v.clone());
        }
        Ok(found)
    }

    /// Tries, in order: the snapshot the lock names (from the cache), the
    /// source's current index, and the versioned snapshot the registry keeps
    /// when the current index no longer is the locked one.
    fn find_voucher(
        &self,
        entry: &LockedSkill,
        source: &Source,
        index_url: &Url,
    ) -> Result<Option<Rc<Voucher>>, ProveError> {
        if let Some(voucher) = self.cached_voucher(entry, source, index_url)? {
            return Ok(Some(Rc::new(voucher)));
        }
        let Some(make) = &self.make_fetcher else {
            return Ok(None);
        };
        let Some(fetcher) = self.fetcher.get_or_init(make).as_ref() else {
            return Ok(None);
        };
        let current = self.current_voucher(fetcher, entry, source, index_url)?;
        if entry.index_digest.is_none_or(|d| d == current.digest) {
            return Ok(Some(Rc::new(current)));
        }
        if let Some(voucher) = self.versioned_voucher(fetcher, entry, source, index_url)? {
            return Ok(Some(Rc::new(voucher)));
        }
        // The lock's snapshot is gone: the current index must list the
        // same artifact (checked by the caller).
        Ok(Some(Rc::new(current)))
    }

    /// The snapshot the lock names, from the cache. `Ok(None)`: not cached,
    /// or signed by a key no longer pinned (a rotation: the current index,
    /// signed by the new key, may still vouch).
    fn cached_voucher(
        &self,
        entry: &LockedSkill,
        source: &Source,
        index_url: &Url,
    ) -> Result<Option<Voucher>, ProveError> {
        let Some(digest) = entry.index_digest else {
            return Ok(None);
        };
        let Some(snapshot) = self.snapshots.get(&digest) else {
            return Ok(None);
        };
        match self.check_snapshot(&snapshot, source, index_url) {
            Ok(voucher) => {
                check_version(entry, &voucher).map_err(|w| broken(entry, "snapshot", w))?;
                Ok(Some(voucher))
            }
            Err(SnapshotProblem::Trust(TrustError::UnknownKey { .. })) => Ok(None),
            Err(problem) => Err(broken(
                entry,
                "snapshot",
                format!("the index snapshot {digest} that skills.lock names {problem}"),
            )),
        }
    }

    /// The source's current index (verified, rollback and expiry checked,
    /// and kept as a snapshot by `source::resolve`).
    fn current_voucher(
        &self,
        fetcher: &Fetcher,
        entry: &LockedSkill,
        source: &Source,
        index_url: &Url,
    ) -> Result<Voucher, ProveError> {
        let mut pinned = source.clone();
        pinned.spec = SourceSpec::Index(index_url.clone());
        let resolved =
            source::resolve(fetcher, &pinned, self.now).map_err(|cause| ProveError::Source {
                skill: entry.name.clone(),
                source_name: entry.source.clone(),
                cause: Box::new(cause),
            })?;
        Ok(Voucher {
            digest: resolved.snapshot,
            signed: resolved.signer.as_ref().map(|s| SignedBy {
                key_id: s.key_id.clone(),
                version: s.version,
                expires: s.expires.clone(),
            }),
            index: resolved.index,
            by: VouchedBy::CurrentIndex,
        })
    }

    /// The versioned snapshot the registry keeps beside index.json, when it
    /// is the one the lock names; kept in the cache once verified.
    /// `Ok(None)`: the lock names no version, or the registry keeps no such
    /// snapshot.
    fn versioned_voucher(
        &self,
        fetcher: &Fetcher,
        entry: &LockedSkill,
        source: &Source,
        index_url: &Url,
    ) -> Result<Option<Voucher>, ProveError> {
        let (Some(digest), Some(version)) = (entry.index_digest, entry.index_version) else {
            return Ok(None);
        };
        let Some(url) = versioned_url(index_url, version) else {
            return Ok(None);
        };
        let limit = fetcher.config().max_index_bytes;
        let auth = source.auth.as_ref();
        let Ok(body) = fetcher.get(&url, auth, limit) else {
            return Ok(None);
        };
        if Digest::of_bytes(&body.bytes) != digest {
            return Ok(None);
        }
        let signature = (!source.keys.is_empty())
            .then(|| fetcher.get(&source::signature_url(&url), auth, 64 * 1024))
            .and_then(Result::ok)
            .and_then(|b| String::from_utf8(b.bytes).ok());
        let snapshot = Snapshot {
            digest,
            bytes: body.bytes,
            signature,
        };
        match self.check_snapshot(&snapshot, source, index_url) {
            Ok(mut voucher) => {
                check_version(entry, &voucher).map_err(|w| broken(entry, "snapshot", w))?;
                voucher.by = VouchedBy::VersionedSnapshot;
                let _ = self
                    .snapshots
                    .put(&snapshot.bytes, snapshot.signature.as_deref());
                Ok(Some(voucher))
            }
            Err(problem) => Err(broken(
                entry,
                "snapshot",
                format!("the registry's snapshot {url} {problem}"),
            )),
        }
    }

    /// An artifact entry's links: the locked digest and kind are the listed
    /// ones, downloaded from the listed URL, and the cache's record of the
    /// artifact (if any) unpacks to the locked tree. Returns whether that
    /// record was there.
    fn check_artifact(
        &self,
        entry: &LockedSkill,
        vouching: &str,
        lock_url: Option<&Url>,
        url: &Url,
        digest: &Digest,
        artifact: &ArtifactType,
    ) -> Result<bool, ProveError> {
        let kind_ok = matches!(
            (artifact, entry.format),
            (ArtifactType::Archive, Format::Archive) | (ArtifactType::SkillMd, Format::SkillMd)
        );
        if entry.artifact != Some(*digest) || !kind_ok {
            return Err(broken(
                entry,
                "artifact",
                format!(
                    "artifact {} is not in {vouching}, which lists {digest} for it",
                    entry
                        .artifact
                        .map(|d| d.to_string())
                        .unwrap_or_else(|| "(none)".into())
                ),
            ));
        }
        if !lock_url.is_some_and(|u| same_lock_url(u, url)) {
            return Err(broken(
                entry,
                "url",
                format!(
                    "skills.lock downloads it from {}, but {vouching} serves it at {url}",
                    entry.url.as_deref().unwrap_or("(none)")
                ),
            ));
        }
        match self.unpacked.tree_of(digest) {
            Some(tree) if tree != entry.tree => Err(broken(
                entry,
                "tree",
                format!(
                    "artifact {digest} unpacks to tree {tree}, but skills.lock says tree {}",
                    entry.tree
                ),
            )),
            Some(_) => Ok(true),
            None => Ok(false),
        }
    }

    /// Verifies a snapshot as its source requires: with pinned keys, a
    /// signature by one of them over exactly these bytes (expiry is not
    /// enforced: an old snapshot proves what the key signed then).
    fn check_snapshot(
        &self,
        snapshot: &Snapshot,
        source: &Source,
        index_url: &Url,
    ) -> Result<Voucher, SnapshotProblem> {
        let signed = if source.keys.is_empty() {
            None
        } else {
            let Some(signature) = &snapshot.signature else {
                return Err(SnapshotProblem::Unsigned);
            };
            let signer = trust::verify_snapshot(
                index_url.as_str(),
                &snapshot.bytes,
                signature,
                &source.keys,
            )
            .map_err(SnapshotProblem::Trust)?;
            Some(SignedBy {
                key_id: signer.key_id,
                version: signer.version,
                expires: signer.expires,
            })
        };
        let index = parse_index(&snapshot.bytes, index_url)
            .map_err(|e| SnapshotProblem::Unreadable(e.to_string()))?;
        Ok(Voucher {
            digest: snapshot.digest,
            index,
            signed,
            by: VouchedBy::Snapshot,
        })
    }
}

#[derive(Debug)]
enum SnapshotProblem {
    Unsigned,
    Trust(TrustError),
    Unreadable(String),
}

impl std::fmt::Display for SnapshotProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotProblem::Unsigned => f.write_str("has no signature, and its source pins a key"),
            SnapshotProblem::Trust(e) => write!(f, "fails its signature check: {e}"),
            SnapshotProblem::Unreadable(e) => write!(f, "is not a readable index: {e}"),
        }
    }
}

/// A v0.1 (`files[]`) entry's link to its tree: when the listing gives a
/// digest for every file, the tree those files make must be the locked one
/// (`Ok(true)`: proven from the listing). Otherwise this user's record of
/// what those files made when they were read must say the locked tree, or
/// the files are read again and must hash to it (`Ok(false)`): never taken
/// from the cache on the lock's word.
fn check_file_list(
    entry: &LockedSkill,
    vouching: &str,
    files: &[crate::index::IndexFile],
    unpacked: &Unpacked,
) -> Result<bool, ProveError> {
    let mut hasher = crate::digest::TreeHasher::new();
    for f in files {
        let Some(d) = f.digest else {
            let key = Unpacked::files_key(files.iter().map(|f| &f.url));
            return match unpacked.tree_of(&key) {
                Some(tree) if tree != entry.tree => Err(broken(
                    entry,
                    "tree",
                    format!(
                        "the files {vouching} lists made tree {tree} when they were read, but skills.lock says tree {}",
                        entry.tree
                    ),
                )),
                Some(_) => Ok(true),
                None => Ok(false),
            };
        };
        hasher.add(f.path.clone(), d);
    }
    let listed = hasher.finish();
    if listed == entry.tree {
        return Ok(true);
    }
    Err(broken(
        entry,
        "tree",
        format!(
            "{vouching} lists files that make tree {listed}, but skills.lock says tree {}",
            entry.tree
        ),
    ))
}

/// The lock's `index-version` must be the version that was signed.
fn check_version(entry: &LockedSkill, voucher: &Voucher) -> Result<(), String> {
    match (&voucher.signed, entry.index_version) {
        (Some(s), Some(v)) if s.version != v => Err(format!(
            "is signed as version {}, but skills.lock says version {v}",
            s.version
        )),
        (None, Some(v)) => Err(format!(
            "is unsigned, but skills.lock says it is signed version {v}"
        )),
        _ => Ok(()),
    }
}

/// A broken `link` of `entry`'s chain, saying `what` does not hold.
fn broken(entry: &LockedSkill, link: &'static str, what: String) -> ProveError {
    Broken {
        skill: entry.name.clone(),
        link,
        what,
    }
    .into()
}

/// The lock's `url` must be the declared source's, to the letter (folder
/// and MCP sources record it verbatim).
fn declared_url(
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

/// The folder links: the entry reads the declared folder, inside the
/// declared `path` when there is one, and never leaves it. A folder source
/// is trusted as it lies on disk, so a lock edited to read another folder
/// (with a tree and approval to match) must stop here.
fn check_folder(entry: &LockedSkill, decl: &SourceDecl) -> Result<(), ProveError> {
    declared_url(entry, decl, "reads it from the folder", "the folder ")?;
    check_within(entry, decl.path.as_deref())
}

/// The lock's `subpath` is a plain relative folder inside `folder`, the
/// folder of the source its skills are looked for in (`None`: anywhere in
/// the source): a lock cannot move a skill to another folder of it.
fn check_within(entry: &LockedSkill, folder: Option<&str>) -> Result<(), ProveError> {
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

/// The MCP links: the server is the declared one and the URI names this
/// skill; the tree is checked when the files are fetched.
fn check_mcp(entry: &LockedSkill, decl: &SourceDecl) -> Result<(), ProveError> {
    declared_url(entry, decl, "fetches it from MCP server", "")?;
    let named = entry
        .uri
        .as_deref()
        .and_then(|u| u.strip_suffix("/SKILL.md"))
        .and_then(|root| root.rsplit('/').next());
    if named != Some(entry.name.as_str()) {
        return Err(broken(
            entry,
            "entry",
            format!(
                "skills.lock gives it the MCP skill URI {}, which does not name `{}`",
                entry.uri.as_deref().unwrap_or("(none)"),
                entry.name
            ),
        ));
    }
    Ok(())
}

/// "the signed index of source `x` (version 3, key ABCD…)" or "the index of
/// source `x` (unsigned)".
fn describe(voucher: &Voucher, source: &str) -> String {
    match &voucher.signed {
        Some(s) => format!(
            "the signed index of source `{source}` (version {}, key {})",
            s.version, s.key_id
        ),
        None => format!("the index of source `{source}` (unsigned)"),
    }
}

/// `…/index.json` → `…/index.<version>.json`: the versioned snapshot
/// `skillpm publish` keeps beside the index.
pub fn versioned_url(index_url: &Url, version: u64) -> Option<Url> {
    let name = index_url.path_segments()?.next_back()?.to_owned();
    let stem = name.strip_suffix(".json")?;
    index_url.join(&format!("{stem}.{version}.json")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versioned_snapshots_sit_beside_the_index() {
        let u = Url::parse("https://r.example/.well-known/agent-skills/index.json").unwrap();
        assert_eq!(
            versioned_url(&u, 7).unwrap().as_str(),
            "https://r.example/.well-known/agent-skills/index.7.json"
        );
        let odd = Url::parse("https://r.example/skills").unwrap();
        assert!(versioned_url(&odd, 7).is_none());
    }
}
