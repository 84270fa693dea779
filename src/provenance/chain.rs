//! The chain a lock entry must prove before anything of it is linked:
//!
//! ```text
//! declared source (skills.toml) → index snapshot (bytes, signed by a pinned key
//! when the source has keys) → the entry for that name → its artifact digest and
//! URL → the tree that artifact unpacked to → the approval
//! ```
//!
//! (for a git source: repository → commit on the declared ref → tree; an
//! OCI source: manifest digest → layer → tree; a folder or MCP server: the
//! declared location and the skill's place in it). The shape is here: the
//! entry's source must be declared, the declared source is worked out once
//! per run, the kind of the lock entry proves its own links
//! (`crate::sources`, each kind's prove step, docs/sources.md), and the
//! lock's `signer` must be what was verified.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::rc::Rc;

use super::memo::{self, ProofMemo};
use crate::net::fetch::Fetcher;
use crate::project::lock::{Format, LockedSkill, Lockfile};
use crate::project::manifest::{Manifest, SourceDecl};
use crate::sources::proof::{Declared, GitOptionsFor, MakeFetcher, ProveContext, broken};
pub use crate::sources::proof::{Proof, ProveError};

/// Proves lock entries. Build one per command and reuse it for every entry.
pub struct Prover<'a> {
    manifest: &'a Manifest,
    cx: ProveContext<'a>,
    /// Each declared source, worked out once per run.
    sources: HashMap<String, Rc<Declared>>,
    /// The lock the entries are read from, when the prover is told.
    lock: Option<&'a Lockfile>,
}

impl<'a> Prover<'a> {
    pub fn new(
        project_root: &'a Path,
        manifest: &'a Manifest,
        cache_root: &Path,
        make_fetcher: Option<MakeFetcher<'a>>,
    ) -> Self {
        Prover {
            manifest,
            cx: ProveContext::new(project_root, cache_root, make_fetcher),
            sources: HashMap::new(),
            lock: None,
        }
    }

    /// A prover that reads sources online through `fetcher` (cloned per
    /// need) and reads git sources as `(offline, allow_http)` say, with the
    /// token bound to each source.
    pub fn online(
        project_root: &'a Path,
        manifest: &'a Manifest,
        cache_root: &Path,
        fetcher: Fetcher,
        (offline, allow_http): (bool, bool),
    ) -> Self {
        let make = move || Some(fetcher.clone());
        let git: GitOptionsFor<'a> = Box::new(move |decl: &SourceDecl| {
            let token = crate::sources::tokens::bound_token_env(decl);
            crate::git::GitOptions::new(offline, token.as_deref())
                .ok()
                .map(|o| o.allowing_http(allow_http))
        });
        Prover::new(project_root, manifest, cache_root, Some(Box::new(make))).with_git(git)
    }

    /// Reads git sources with these options (online when they say so);
    /// without, git refs are checked offline against the cache.
    pub fn with_git(mut self, options: GitOptionsFor<'a>) -> Self {
        self.cx.git_options = Some(options);
        self
    }

    /// Entries are proven from `lock` (its file's bytes may then stand for
    /// them in a remembered proof, docs/threat-model.md#remembered-proofs).
    pub fn with_lock(mut self, lock: Option<&'a Lockfile>) -> Self {
        self.lock = lock;
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

    /// Proves every entry before any is fetched or linked. Returns the names
    /// whose artifact or commit has no record of the tree it gave (and v0.1
    /// file lists not proven from their listing), so they must be unpacked
    /// again and hash to the lock's tree. The first broken link (or
    /// unreadable source) fails the whole run at once: no later entry is
    /// tried (docs/network.md: a source that stays unreachable stops the run).
    ///
    /// Index and folder entries this user proved exactly so before are not
    /// proven again (docs/threat-model.md#remembered-proofs).
    pub fn prove_for_fetch(
        &mut self,
        entries: &[&LockedSkill],
    ) -> Result<BTreeSet<String>, ProveError> {
        let (cached, others): (Vec<&LockedSkill>, Vec<&LockedSkill>) =
            entries.iter().copied().partition(|s| memo::rememberable(s));
        let memo = (!cached.is_empty())
            .then(|| {
                let (root, cache) = (self.cx.root, &self.cx.cache_root);
                ProofMemo::for_entries(root, self.manifest, cache, &cached, self.lock)
            })
            .flatten();
        if memo.as_ref().is_some_and(ProofMemo::holds) {
            return self.prove_each_for_fetch(&others);
        }
        let recheck = self.prove_each_for_fetch(entries)?;
        if let Some(memo) = memo
            && !cached.iter().any(|s| recheck.contains(&s.name))
        {
            memo.remember();
        }
        Ok(recheck)
    }

    fn prove_each_for_fetch(
        &mut self,
        entries: &[&LockedSkill],
    ) -> Result<BTreeSet<String>, ProveError> {
        let mut recheck = BTreeSet::new();
        for s in entries {
            let proof = self.prove(s)?.ok_or_else(|| ProveError::Unproven {
                skill: s.name.clone(),
            })?;
            let pinned_elsewhere =
                proof.artifact.is_some() || proof.commit.is_some() || proof.format == Format::Files;
            if pinned_elsewhere && !proof.tree_recorded {
                recheck.insert(s.name.clone());
            }
        }
        Ok(recheck)
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
        let proof = Proof {
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
            publisher: None,
        };
        crate::sources::load::prove(&mut self.cx, entry, decl, &declared, proof)
    }

    /// What a declared source is, worked out once per run.
    fn declared(
        &mut self,
        decl: &SourceDecl,
    ) -> Result<Rc<Declared>, crate::sources::index::SourceError> {
        if let Some(d) = self.sources.get(&decl.name) {
            return Ok(d.clone());
        }
        let d = Rc::new(crate::sources::load::declared(decl, self.cx.root)?);
        self.sources.insert(decl.name.clone(), d.clone());
        Ok(d)
    }
}
