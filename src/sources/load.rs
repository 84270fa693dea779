//! The steps of a command over sources of any kind (docs/sources.md), as
//! cargo's `SourceId::load`: a declared source's identity ([`SourceId::of`])
//! gives its kind's module, whose `open` gives the opened [`Source`]; a lock
//! entry's `format` gives its kind. No kind is named here.

use std::collections::BTreeMap;
use std::path::Path;

use super::candidate::{Candidate, not_offered};
use super::id::{SourceId, SourceKind};
use super::proof::{Declared, Proof, ProveContext, ProveError};
use super::workspace::Workspace;
use super::{Kind, Latest, Net, NewSource, Probed, SearchResult, SearchTarget, Source};
use crate::error::Exit;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;

/// The module of the kind that wrote a lock entry.
fn kind_of(skill: &LockedSkill) -> &'static dyn Kind {
    SourceKind::of_format(skill.format).module()
}

/// A declared source, opened.
pub struct Loaded {
    pub decl: SourceDecl,
    pub source: Box<dyn Source>,
}

impl Loaded {
    /// Opens the source `decl` names (docs/sources.md, each kind's open).
    pub fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Loaded> {
        Loaded::open_for(ws, decl, false)
    }

    /// [`Loaded::open`] for `add --list`: the source is asked for its
    /// offers only ([`Kind::open_listing`]).
    pub fn open_listing(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Loaded> {
        Loaded::open_for(ws, decl, true)
    }

    fn open_for(
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        listing: bool,
    ) -> anyhow::Result<Loaded> {
        let id = SourceId::of(decl, ws.root);
        if !matches!(id, Ok(ref id) if [SourceKind::Mcp, SourceKind::Oci].contains(&id.kind)) {
            // A bad `path` is reported before the source is read.
            super::candidate::clean_subpath(decl.path.as_deref())?;
        }
        let kind = id?.kind;
        if let Some(why) = no_bundles(kind, decl) {
            return Err(crate::error::OpError::new(Exit::Integrity, why).into());
        }
        if ws.audit_ahead && !kind.module().asks_a_server_first() {
            crate::audit::warm_up();
        }
        let source = match listing {
            true => kind.module().open_listing(ws, decl)?,
            false => kind.module().open(ws, decl)?,
        };
        Ok(Loaded {
            decl: decl.clone(),
            source,
        })
    }

    /// Where the source was read, for "found nothing" messages.
    pub fn looked_at(&self) -> String {
        let place = self.source.looked_at(&self.decl);
        match self.source.discovery() {
            Some(found) => format!(
                "{place} ({} folders walked: SKILL.md at the root, skills/, category and agent folders, marketplaces, then everywhere to depth {})",
                found.walked,
                crate::skill::discover::MAX_DEPTH
            ),
            None => place,
        }
    }

    /// The "not offered" error for `name` (exit 8), listing what is.
    pub fn missing(&self, name: &str) -> anyhow::Error {
        let source = &self.source;
        not_offered(&self.decl.name, &source.offers(), source.discovery(), name)
    }

    /// Downloads, verifies and stores the named skills. Unknown names fail
    /// (exit 8) before anything is downloaded; the first skill that cannot
    /// be stored fails the whole call.
    pub fn resolve_names(
        &self,
        ws: &mut Workspace<'_>,
        names: &[String],
    ) -> anyhow::Result<Vec<Candidate>> {
        let offered: Vec<String> = self.source.offers().into_iter().map(|o| o.name).collect();
        let lists_all = self.source.lists_all();
        if let Some(name) = names.iter().find(|n| lists_all && !offered.contains(n)) {
            return Err(self.missing(name));
        }
        (self.source.resolve(ws, &self.decl, names).into_iter()).collect()
    }
}

/// Resolves `(name, source)` pairs, each source opened once (in name order
/// of the sources; the names of one source in the order given).
pub fn resolve_by_source<'a>(
    ws: &mut Workspace<'_>,
    wanted: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> anyhow::Result<Vec<Candidate>> {
    let mut by_source: BTreeMap<&str, Vec<String>> = Default::default();
    for (name, source) in wanted {
        by_source.entry(source).or_default().push(name.to_owned());
    }
    let mut candidates = Vec::new();
    for (source, names) in by_source {
        let decl = ws.manifest.require_source(source)?.clone();
        let loaded = Loaded::open(ws, &decl)?;
        candidates.extend(loaded.resolve_names(ws, &names)?);
    }
    Ok(candidates)
}

/// Whether a locked skill must be fetched again although its tree may be
/// stored (its kind's rule, [`Kind::needs_fetch`]).
pub fn needs_fetch(ws: &Workspace<'_>, skill: &LockedSkill) -> anyhow::Result<bool> {
    kind_of(skill).needs_fetch(ws, skill)
}

/// Brings locked skills missing from the store in: each kind's **fetch**
/// with all of its skills at once (an index downloads every artifact in one
/// batch, whatever their sources).
pub fn fetch_locked(ws: &mut Workspace<'_>, missing: &[&LockedSkill]) -> anyhow::Result<()> {
    let mut by_kind: BTreeMap<SourceKind, Vec<&LockedSkill>> = BTreeMap::new();
    for s in missing {
        let kind = SourceKind::of_format(s.format);
        // A v0.1 file list is read from its source's index now.
        if s.format == Format::Files
            && SourceId::of(ws.manifest.require_source(&s.source)?, ws.root)?.kind != kind
        {
            return super::workspace::fail(
                Exit::Usage,
                format!(
                    "source `{}` is a git source but skills.lock says its skills come from an index; run `skillpm update`",
                    s.source
                ),
            );
        }
        by_kind.entry(kind).or_default().push(s);
    }
    for (kind, group) in by_kind {
        kind.module().fetch(ws, &group)?;
    }
    Ok(())
}

/// What a declared source is for the prove step, worked out once per run
/// by its caller: its repository, folder and ref when it is a git source,
/// else the source (registry) itself.
pub fn declared(decl: &SourceDecl, root: &Path) -> Result<Declared, super::index::SourceError> {
    let git = SourceId::of(decl, root)
        .ok()
        .filter(|id| id.kind == SourceKind::Git)
        .and_then(|id| {
            crate::git::parse_git_spec(&id.text, None, root)
                .ok()
                .flatten()
        });
    Ok(Declared {
        git_url: git.as_ref().map(|spec| spec.url()),
        git_folder: (git.as_ref()).and_then(|s| s.join_subpath(decl.path.as_deref().unwrap_or(""))),
        git_ref: git.as_ref().and_then(|spec| spec.reference.clone()),
        source: match git {
            Some(_) => None,
            None => Some(super::index::IndexSource::from_decl(decl, root)?),
        },
    })
}

/// The kind's **prove** step for a lock entry of declared source `decl`.
pub fn prove(
    cx: &mut ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
    declared: &Declared,
    proof: Proof,
) -> Result<Option<Proof>, ProveError> {
    let proof = kind_of(entry).prove(cx, entry, decl, declared, proof)?;
    // The chain's last link, the same for every kind: the lock's `signer`
    // must be what was verified (no kind but a signed index verifies one).
    if let Some(proof) = &proof {
        crate::sources::proof::check_signer_record(entry, proof.signed.as_ref())?;
    }
    if let Some(why) = no_bundles(SourceKind::of_format(entry.format), decl) {
        return Err(crate::sources::proof::broken(entry, "publisher", why));
    }
    Ok(proof)
}

/// Why a source that declares a publisher (`identity`/`issuer`) cannot
/// have one proven: only index entries, OCI artifacts and git sources'
/// GitHub releases carry Sigstore bundles skillpm reads
/// (docs/provenance.md#where-bundles-come-from), and
/// a declared publisher is never silently ignored.
fn no_bundles(kind: SourceKind, decl: &SourceDecl) -> Option<String> {
    if kind.module().carries_bundles() {
        return None;
    }
    let expected = decl.expected_publisher()?;
    Some(format!(
        "source `{}` declares the publisher {} (issuer {}), but it carries no Sigstore bundle skillpm reads (only registries, OCI artifacts and GitHub releases of git sources do); remove `identity`/`issuer`, or publish the skills to a registry, an OCI repository or a GitHub release with their bundles",
        decl.name, expected.identity, expected.issuer
    ))
}

/// What source `source_name` offers now for each of its locked `skills`.
pub fn latest(
    ws: &mut Workspace<'_>,
    source_name: &str,
    skills: &[&LockedSkill],
) -> anyhow::Result<Vec<Latest>> {
    let decl = ws.manifest.require_source(source_name)?.clone();
    let kind = SourceId::of(&decl, ws.root)?.kind;
    kind.module().latest(ws, &decl, skills)
}

/// What identifies a locked skill's content upstream (`outdated` compares
/// it with [`latest`]): an OCI manifest digest, a git commit, an artifact
/// digest, else the tree.
pub fn locked_identity(s: &LockedSkill) -> String {
    // OCI: the manifest digest the lock pins, compared with the tag's now.
    if s.format == Format::Oci
        && let Some(digest) = s.url.as_deref().and_then(|u| u.rsplit_once('@'))
    {
        return digest.1.to_owned();
    }
    s.commit
        .clone()
        .or_else(|| s.artifact.map(|d| d.to_string()))
        .unwrap_or_else(|| s.tree.to_string())
}

impl SearchTarget {
    /// A source skills.toml declares (relative paths against `root`).
    pub fn declared(decl: &SourceDecl, root: &Path) -> SearchTarget {
        SearchTarget {
            decl: decl.clone(),
            base_dir: root.to_owned(),
            query: super::Query::default(),
        }
    }

    /// A URL or path given on the command line (relative to `cwd`).
    pub fn ad_hoc(text: &str, cwd: &Path) -> SearchTarget {
        SearchTarget {
            decl: SourceDecl {
                name: text.to_owned(),
                url: text.to_owned(),
                ..Default::default()
            },
            base_dir: cwd.to_owned(),
            query: super::Query::default(),
        }
    }

    /// The same source, listing only what matches `query`.
    pub fn matching(self, query: super::Query) -> SearchTarget {
        SearchTarget { query, ..self }
    }
}

/// Each kind's **list** step without a project: an index resolved
/// (signature checked), a git ref resolved and checked out, a folder
/// walked, an OCI namespace's catalog read.
/// Only the hits that match the target's query are returned; the entries
/// skipped or refused are all reported, whatever the query.
pub fn list(net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
    let id = SourceId::of(&target.decl, &target.base_dir)?;
    let mut found = id.kind.module().search(net, target)?;
    (found.hits).retain(|h| target.query.matches(&h.name, &h.description));
    Ok(found)
}

/// `source add`: the new source resolved as installs will resolve it
/// (nothing under --offline): an index's probe, a git repository's commit,
/// an OCI registry's answer (and cosign signature, when a key is pinned).
pub fn probe(net: &Net<'_>, new: &NewSource<'_>) -> anyhow::Result<Probed> {
    let id = SourceId::of(new.decl, new.root)?;
    id.kind.module().probe(net, new)
}
