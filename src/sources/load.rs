//! The one dispatch over the kinds (docs/sources.md): which kind a source
//! or a lock entry is ([`KindOf`]), and an opened source of any kind
//! ([`Opened`]). Adding a kind is one arm in each `match` here.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;

use super::candidate::{Candidate, Offer, not_offered};
use super::proof::{Declared, Proof, ProveContext, ProveError};
use super::workspace::Workspace;
use super::{Kind, Latest, folder, git, index, mcp, oci};
use crate::error::Exit;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;

/// The kinds of source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum KindOf {
    Index,
    Git,
    Folder,
    Mcp,
    Oci,
}

impl KindOf {
    /// The kind of the source skills.toml's `url` names (relative paths
    /// against `base_dir`): an MCP server, an OCI registry, a git
    /// repository, a plain folder of skills, else a registry (index).
    pub fn of_source(text: &str, base_dir: &Path) -> anyhow::Result<KindOf> {
        if crate::sources::mcp::client::is_mcp_form(text) {
            return Ok(KindOf::Mcp);
        }
        if text.starts_with(oci::SCHEME) {
            return Ok(KindOf::Oci);
        }
        if git::spec_for(text, base_dir)?.is_some() {
            return Ok(KindOf::Git);
        }
        if folder::source_for(text, base_dir).is_some() {
            return Ok(KindOf::Folder);
        }
        Ok(KindOf::Index)
    }

    /// The kind a lock entry was resolved from, by its format.
    pub fn of_lock(format: Format) -> KindOf {
        match format {
            Format::Archive | Format::SkillMd | Format::Files => KindOf::Index,
            Format::Git => KindOf::Git,
            Format::Path => KindOf::Folder,
            Format::Mcp => KindOf::Mcp,
            Format::Oci => KindOf::Oci,
        }
    }
}

/// Each kind's opened source.
pub enum OpenedKind {
    Index(<index::Index as Kind>::Opened),
    Git(<git::Git as Kind>::Opened),
    Folder(<folder::Folder as Kind>::Opened),
    Mcp(<mcp::Mcp as Kind>::Opened),
    Oci(<oci::kind::Oci as Kind>::Opened),
}

/// A declared source, opened.
pub struct Opened {
    pub decl: SourceDecl,
    pub kind: OpenedKind,
}

/// `$call` on the kind of `$opened`, its opened state bound to `$o`.
macro_rules! each_kind {
    ($opened:expr, $o:ident => $call:expr) => {
        match $opened {
            OpenedKind::Index($o) => {
                type K = index::Index;
                $call
            }
            OpenedKind::Git($o) => {
                type K = git::Git;
                $call
            }
            OpenedKind::Folder($o) => {
                type K = folder::Folder;
                $call
            }
            OpenedKind::Mcp($o) => {
                type K = mcp::Mcp;
                $call
            }
            OpenedKind::Oci($o) => {
                type K = oci::kind::Oci;
                $call
            }
        }
    };
}

/// `$call` on the kind `$kind`, as the type `K`.
macro_rules! for_kind {
    ($kind:expr, $call:expr) => {
        match $kind {
            KindOf::Index => {
                type K = index::Index;
                $call
            }
            KindOf::Git => {
                type K = git::Git;
                $call
            }
            KindOf::Folder => {
                type K = folder::Folder;
                $call
            }
            KindOf::Mcp => {
                type K = mcp::Mcp;
                $call
            }
            KindOf::Oci => {
                type K = oci::kind::Oci;
                $call
            }
        }
    };
}

impl Opened {
    /// Opens the source `decl` names (docs/sources.md, each kind's open).
    pub fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Opened> {
        let kind = match KindOf::of_source(&decl.url, ws.root) {
            Ok(kind @ (KindOf::Mcp | KindOf::Oci)) => kind,
            other => {
                // A bad `path` is reported before the source is read.
                super::candidate::clean_subpath(decl.path.as_deref())?;
                other?
            }
        };
        let kind = match kind {
            KindOf::Index => OpenedKind::Index(index::Index::open(ws, decl)?),
            KindOf::Git => OpenedKind::Git(git::Git::open(ws, decl)?),
            KindOf::Folder => OpenedKind::Folder(folder::Folder::open(ws, decl)?),
            KindOf::Mcp => OpenedKind::Mcp(mcp::Mcp::open(ws, decl)?),
            KindOf::Oci => OpenedKind::Oci(oci::kind::Oci::open(ws, decl)?),
        };
        Ok(Opened {
            decl: decl.clone(),
            kind,
        })
    }

    pub fn offers(&self) -> Vec<Offer> {
        each_kind!(&self.kind, o => K::offers(o))
    }

    /// [`Opened::offers`] when the source is no longer needed.
    pub fn into_offers(self) -> Vec<Offer> {
        each_kind!(self.kind, o => K::into_offers(o))
    }

    /// What discovery found but cannot offer (git and folder sources).
    pub fn discovery(&self) -> Option<&crate::skill::discover::RepoDiscovery> {
        each_kind!(&self.kind, o => K::discovery(o))
    }

    /// A source whose reference or (sub)path is itself one skill.
    pub fn is_one_skill(&self) -> bool {
        each_kind!(&self.kind, o => K::is_one_skill(o))
    }

    pub fn decl(&self) -> &SourceDecl {
        &self.decl
    }

    /// Where the source was read, for "found nothing" messages.
    pub fn looked_at(&self) -> String {
        let place = each_kind!(&self.kind, o => K::looked_at(&self.decl, o));
        match self.discovery() {
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
        not_offered(&self.decl.name, &self.offers(), self.discovery(), name)
    }

    /// Downloads, verifies and stores the named skills. Unknown names fail
    /// (exit 8) before anything is downloaded; the first skill that cannot
    /// be stored fails the whole call.
    pub fn resolve_names(
        &self,
        ws: &mut Workspace<'_>,
        names: &[String],
    ) -> anyhow::Result<Vec<Candidate>> {
        let offered: Vec<String> = self.offers().into_iter().map(|o| o.name).collect();
        let lists_all = each_kind!(&self.kind, o => K::lists_all(o));
        if let Some(name) = names.iter().find(|n| lists_all && !offered.contains(n)) {
            return Err(self.missing(name));
        }
        self.resolve_each(ws, names).into_iter().collect()
    }

    /// Like [`Opened::resolve_names`], one result per name, so `add --all`
    /// can keep every skill that is acceptable and report the others.
    pub fn resolve_each(
        &self,
        ws: &mut Workspace<'_>,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        each_kind!(&self.kind, o => K::resolve(ws, &self.decl, o, names))
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
        let opened = Opened::open(ws, &decl)?;
        candidates.extend(opened.resolve_names(ws, &names)?);
    }
    Ok(candidates)
}

/// Whether a locked skill must be fetched again although its tree may be
/// stored (its kind's rule, [`Kind::needs_fetch`]).
pub fn needs_fetch(ws: &Workspace<'_>, skill: &LockedSkill) -> anyhow::Result<bool> {
    for_kind!(KindOf::of_lock(skill.format), K::needs_fetch(ws, skill))
}

/// Brings locked skills missing from the store in, each kind's **fetch**:
/// every index artifact in one batch of downloads, then source by source.
pub fn fetch_locked(ws: &mut Workspace<'_>, missing: &[&LockedSkill]) -> anyhow::Result<()> {
    let (artifacts, others): (Vec<&LockedSkill>, Vec<&LockedSkill>) = missing
        .iter()
        .partition(|s| matches!(s.format, Format::Archive | Format::SkillMd));
    index::Index::fetch(ws, &artifacts)?;
    let mut by_source: BTreeMap<&str, Vec<&LockedSkill>> = BTreeMap::new();
    for s in &others {
        by_source.entry(s.source.as_str()).or_default().push(s);
    }
    for (source, group) in by_source {
        let kind = KindOf::of_lock(group[0].format);
        if kind == KindOf::Index {
            let decl = ws.manifest.require_source(source)?;
            if KindOf::of_source(&decl.url, ws.root)? != KindOf::Index {
                return super::workspace::fail(
                    crate::error::Exit::Usage,
                    format!(
                        "source `{source}` is a git source but skills.lock says its skills come from an index; run `skillpm update`"
                    ),
                );
            }
        }
        for_kind!(kind, K::fetch(ws, &group))?;
    }
    Ok(())
}

/// The kind's **prove** step for a lock entry of declared source `decl`.
pub fn prove(
    cx: &mut ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
    declared: &Declared,
    proof: Proof,
) -> Result<Option<Proof>, ProveError> {
    let proof = for_kind!(
        KindOf::of_lock(entry.format),
        K::prove(cx, entry, decl, declared, proof)
    )?;
    // The chain's last link, the same for every kind: the lock's `signer`
    // must be what was verified (no kind but a signed index verifies one).
    if let Some(proof) = &proof {
        crate::sources::proof::check_signer_record(entry, proof.signed.as_ref())?;
    }
    Ok(proof)
}

/// What source `source_name` offers now for each of its locked `skills`.
pub fn latest(
    ws: &mut Workspace<'_>,
    source_name: &str,
    skills: &[&LockedSkill],
) -> anyhow::Result<Vec<Latest>> {
    let decl = ws.manifest.require_source(source_name)?.clone();
    let kind = KindOf::of_source(&decl.url, ws.root)?;
    for_kind!(kind, K::latest(ws, &decl, skills))
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

/// A source to list without a project (`search`), and how its text was
/// written (git sources are read from the text, relative paths against
/// `base_dir`).
pub struct SearchTarget {
    pub source: index::Source,
    pub text: String,
    pub base_dir: std::path::PathBuf,
    /// skills.toml's `token-env` (the GitHub fast path sends that token).
    pub token_env: Option<String>,
    /// skills.toml's `path`: the folder inside the source.
    pub path: Option<String>,
}

impl SearchTarget {
    /// A source skills.toml declares (relative paths against `root`), with
    /// the token its origin is bound to.
    pub fn declared(decl: &SourceDecl, root: &Path) -> anyhow::Result<SearchTarget> {
        Ok(SearchTarget {
            source: index::Source::from_decl(decl, root)?,
            text: decl.url.clone(),
            base_dir: root.to_owned(),
            token_env: super::tokens::bound_token_env(decl),
            path: decl.path.clone(),
        })
    }

    /// A URL or path given on the command line (relative to `cwd`).
    pub fn ad_hoc(text: &str, cwd: &Path) -> anyhow::Result<SearchTarget> {
        Ok(SearchTarget {
            source: index::Source::ad_hoc(text, cwd, Vec::new())?,
            text: text.to_owned(),
            base_dir: cwd.to_owned(),
            token_env: None,
            path: None,
        })
    }
}

/// What a source offers, as its kind lists it.
pub enum SourceListing {
    Index(Box<index::ResolvedIndex>),
    Discovered(Discovered),
    /// An OCI source's skills: name, description, version.
    Oci(Vec<(String, String, Option<String>)>),
}

/// What a git source offers at the commit its ref names now, or a plain
/// folder of skills.
pub struct Discovered {
    /// `git` or `folder`.
    pub format: &'static str,
    /// The repository, or the folder.
    pub url: String,
    pub commit: Option<String>,
    /// The folder inside the source that the skills' paths start from.
    pub subpath: Option<String>,
    pub skills: Vec<crate::skill::discover::RepoSkill>,
}

/// Each kind's **list** step without a project: an index resolved
/// (signature checked), a git ref resolved and checked out, a folder
/// walked, an OCI namespace's catalog read.
pub fn list(
    ui: &crate::printer::Printer,
    (offline, allow_http): (bool, bool),
    fetcher: &crate::net::fetch::Fetcher,
    target: &SearchTarget,
) -> anyhow::Result<SourceListing> {
    let text = target.text.trim();
    if text.starts_with(oci::SCHEME) {
        let decl = SourceDecl {
            name: target.source.name.clone(),
            url: text.to_owned(),
            keys: Vec::new(),
            token_env: target.token_env.clone(),
            path: None,
            cosign_key: None,
            identity: None,
            issuer: None,
        };
        let listed = oci::kind::search_listing(ui, offline, allow_http, &decl)?;
        return Ok(SourceListing::Oci(listed));
    }
    let subpath = super::candidate::clean_subpath(target.path.as_deref())?;
    if let Some(spec) = git::spec_for(&target.text, &target.base_dir)? {
        let spec = git::with_folder(spec, subpath.as_deref())?;
        let options = crate::git::GitOptions::new(offline, target.token_env.as_deref())?
            .allowing_http(allow_http);
        let url = spec.url();
        let (commit, subpath, found) = git::list(ui, spec, &options)?;
        return Ok(SourceListing::Discovered(Discovered {
            format: "git",
            url,
            commit: Some(commit),
            subpath,
            skills: found.skills,
        }));
    }
    if let Some(base) = folder::source_for(&target.text, &target.base_dir) {
        let found = folder::list(ui, &base, subpath.as_deref())?;
        return Ok(SourceListing::Discovered(Discovered {
            format: "folder",
            url: base.display().to_string(),
            commit: None,
            subpath,
            skills: found.skills,
        }));
    }
    let resolved = index::resolve(fetcher, &target.source, std::time::SystemTime::now())?;
    Ok(SourceListing::Index(Box::new(resolved)))
}

/// `source add`: the new source resolved as installs will resolve it
/// (nothing under --offline): an index's probe, a git repository's commit,
/// an OCI registry's answer (and cosign signature, when a key is pinned).
pub fn probe(
    ui: &crate::printer::Printer,
    (offline, allow_http): (bool, bool),
    decl: &SourceDecl,
    (root, user): (&Path, &crate::net::UserTokens),
    token_env: Option<&str>,
) -> anyhow::Result<(Option<index::Probe>, Option<String>)> {
    if decl.url.starts_with(oci::SCHEME) {
        if !decl.keys.is_empty() {
            return super::workspace::fail(
                Exit::Usage,
                "--key pins a minisign index key; an OCI source pins a cosign key with --cosign-key FILE",
            );
        }
        if !offline {
            oci::kind::probe(ui, allow_http, decl, token_env)
                .with_context(|| format!("source `{}` was not added", decl.name))?;
        }
        return Ok((None, None));
    }
    if let Some(spec) = git::spec_for(&decl.url, root)? {
        let options = match offline {
            true => None,
            false => Some(crate::git::GitOptions::new(false, token_env)?.allowing_http(allow_http)),
        };
        let commit = git::probe(ui, decl, &spec, options.as_ref())?;
        return Ok((None, commit));
    }
    if offline {
        return Ok((None, None));
    }
    let fetcher = super::workspace::fetcher(ui, offline, allow_http)?;
    let probe = index::probe(ui, &fetcher, decl, root, user)?;
    Ok((Some(probe), None))
}
