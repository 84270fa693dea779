//! The git kind (docs/sources.md#git): a repository (GitHub, any git URL,
//! or a local repository) at the commit its declared ref names now. The
//! lock pins the repository URL, the full commit and the skill's folder;
//! the proof is that the commit is on the declared ref
//! (`crate::git::prove_on_ref`) and that it held the locked tree. A source
//! that declares a publisher (`identity`/`issuer`) takes only a commit
//! whose release carries a Sigstore bundle made by that publisher at that
//! commit (docs/provenance.md#publisher-identity-for-git-sources).

use std::collections::BTreeMap;
use std::path::Path;

use super::candidate::{
    Candidate, FoundPlace, Offer, check_tree, clean_subpath, found_offers, import_found,
    new_lock_entry, not_offered, shown_path,
};
use super::location::{Written, is_git_form};
use super::proof::{Declared, Proof, ProveContext, ProveError, RefProof, broken, check_within};
use super::tokens::bound_token_env;
use super::workspace::{Workspace, fail};
use super::{
    Hit, Kind, Latest, Net, NewSource, Probed, SearchResult, SearchTarget, Source, found_hits,
};
use crate::error::{Exit, OpError};
use crate::git::{self, GitError, GitOptions, GitSpec};
use crate::project::lock::{Format, LockedSkill, Publisher};
use crate::project::manifest::SourceDecl;
use crate::sources::publisher;
use crate::store::unpacked::{Records, Unpacked};
use crate::trust::sigstore::{About, MAX_BUNDLE_BYTES, Verified};

/// This kind's name in the run's memo.
const KIND: &str = "git";

/// The git kind.
pub struct Git;

/// A git source, opened: its ref resolved and that commit checked out.
pub struct GitOpened {
    pub spec: GitSpec,
    pub commit: String,
    pub checkout: Box<git::Checkout>,
    pub found: crate::skill::discover::RepoDiscovery,
    /// The commit's publisher, verified (the source declares one).
    pub publisher: Option<Publisher>,
}

/// Resolves the ref (which proves the ref link: the commit is its tip
/// now), checks the commit out and discovers its skills.
fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<GitOpened> {
    let subpath = clean_subpath(decl.path.as_deref())?;
    let spec = with_folder(spec_of(&decl.url, ws.root)?, subpath.as_deref())?;
    let opts = options(ws, decl)?;
    ws.ui.status("Resolving", spec.to_string());
    let resolved = git::resolve(&spec, &opts)?;
    for w in &resolved.warnings {
        ws.ui.warn(w);
    }
    record_on_ref(
        ws.store.root(),
        &spec.url(),
        spec.reference.as_deref(),
        &resolved.commit,
        &resolved.commit,
    );
    let publisher = attest(ws, decl, &spec, &resolved.commit, &opts)?;
    let checkout = git::checkout(&spec, &resolved.commit, &ws.store.tmp_dir(), &opts)?;
    for w in &checkout.warnings {
        ws.ui.warn(w);
    }
    let found = checkout.discover();
    for w in &found.warnings {
        ws.ui.warn(w);
    }
    Ok(GitOpened {
        spec,
        commit: resolved.commit,
        checkout: Box::new(checkout),
        found,
        publisher,
    })
}

/// The publisher of `commit`, when the source declares one: the release
/// asset `<tag>.sigstore.json` of the tag the source names, verified to be
/// by a workflow run at this commit of this repository and by the declared
/// identity, and kept (docs/provenance.md#publisher-identity-for-git-sources).
fn attest(
    ws: &Workspace<'_>,
    decl: &SourceDecl,
    spec: &GitSpec,
    commit: &str,
    opts: &GitOptions,
) -> anyhow::Result<Option<Publisher>> {
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    ws.ui
        .status("Verifying", format!("the Sigstore bundle of {spec}"));
    let (found, why) = match release_tag(spec) {
        Err(why) => (Vec::new(), why),
        Ok(tag) => release_bundle(spec, tag, opts)?,
    };
    let about = About::Commit {
        repository: spec.url(),
        commit: commit.to_owned(),
    };
    let what = format!("source `{}` at commit {commit}", decl.name);
    let kept = publisher::keep_verified(ws.store.root(), decl, &what, found, &about, &why)?;
    Ok(kept.map(|(p, _)| p))
}

/// The tag whose release carries the source's bundle: the ref the source
/// declares (`refs/tags/` taken off). `Err`: why a source without one has
/// no release to read.
fn release_tag(spec: &GitSpec) -> Result<&str, String> {
    match spec.reference.as_deref() {
        None => Err(format!(
            "it follows the default branch of {}; only a release's asset `<tag>.sigstore.json` carries a git source's Sigstore bundle, so name the tag (`github:OWNER/REPO@TAG`)",
            spec.url()
        )),
        Some(r) if git::is_full_sha(r) || r.starts_with("refs/heads/") => Err(format!(
            "it names `{r}` of {}, not a release tag; only a release's asset `<tag>.sigstore.json` carries a git source's Sigstore bundle",
            spec.url()
        )),
        Some(r) => Ok(r.strip_prefix("refs/tags/").unwrap_or(r)),
    }
}

/// Bundles found, as `(address, bytes)`.
type Bundles = Vec<(String, Vec<u8>)>;

/// The release asset `<tag>.sigstore.json` of `tag`, as `(address,
/// bytes)`; none found: empty, and why.
fn release_bundle(
    spec: &GitSpec,
    tag: &str,
    opts: &GitOptions,
) -> anyhow::Result<(Bundles, String)> {
    let asset = format!("{tag}.sigstore.json");
    let repo = spec.url();
    let none = |why: String| Ok((Vec::new(), why));
    match git::release_asset(spec, tag, &asset, MAX_BUNDLE_BYTES, opts)? {
        None => none(format!(
            "its repository {repo} is not on GitHub, whose release assets are where a git source's Sigstore bundle is read"
        )),
        Some(git::ReleaseAsset::NoRelease) => none(format!(
            "{repo} has no release for tag `{tag}` (its asset `{asset}` holds the bundle)"
        )),
        Some(git::ReleaseAsset::NoAsset { names }) => none(format!(
            "the release `{tag}` of {repo} has no asset `{asset}` (it has {})",
            match names.is_empty() {
                true => "none".to_owned(),
                false => names.join(", "),
            }
        )),
        Some(git::ReleaseAsset::Found { url, bytes }) => Ok((vec![(url, bytes)], String::new())),
    }
}

/// For `search`: who published `commit`, as the release bundle of the tag
/// the source names says, held to the declared publisher when there is
/// one; else why not. Nothing is kept; a source that declares no publisher
/// and whose release has no bundle shows none.
fn listed_publisher(
    decl: &SourceDecl,
    spec: &GitSpec,
    commit: &str,
    opts: &GitOptions,
) -> (Option<Verified>, Option<String>) {
    let expected = decl.expected_publisher();
    let found = match release_tag(spec) {
        Err(why) => Err(why),
        Ok(tag) => match release_bundle(spec, tag, opts) {
            Ok((found, why)) => found.into_iter().next().ok_or(why),
            Err(e) => Err(format!("{e:#}")),
        },
    };
    let what = format!("source `{}` at commit {commit}", decl.name);
    let verified = found.and_then(|(at, bytes)| {
        let about = About::Commit {
            repository: spec.url(),
            commit: commit.to_owned(),
        };
        publisher::listed_bytes(expected.as_ref(), &what, &at, &bytes, about)
            .map_err(|e| e.to_string())
    });
    match (verified, &expected) {
        (Ok(v), _) => (Some(v), None),
        (Err(why), Some(expected)) => (None, Some(expected.missing(&what, &why).to_string())),
        (Err(_), None) => (None, None),
    }
}

/// The publisher link of a locked git skill: the kept bundle (else the
/// release asset its record names, read again online) verified for the
/// locked commit of the declared repository and held to the declared
/// publisher.
fn prove_publisher(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
    declared: &Declared,
) -> Result<Option<Verified>, ProveError> {
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    let about = entry.commit.as_ref().map(|commit| About::Commit {
        repository: declared.git_url.clone().unwrap_or_default(),
        commit: commit.clone(),
    });
    let online = (cx.git_options.as_ref())
        .and_then(|make| make(decl))
        .filter(|o| !o.offline);
    let refetch = |record: &Publisher| -> Result<Vec<u8>, String> {
        let opts = online.as_ref().ok_or("this run reads no sources")?;
        let (spec, tag, asset) = release_of(&record.url)?;
        match git::release_asset(&spec, &tag, &asset, MAX_BUNDLE_BYTES, opts) {
            Ok(Some(git::ReleaseAsset::Found { bytes, .. })) => Ok(bytes),
            Ok(_) => Err(format!("{} is gone", record.url)),
            Err(e) => Err(format!("cannot read its Sigstore bundle: {e}")),
        }
    };
    let refetch: Option<publisher::Refetch<'_>> = online.is_some().then_some(&refetch);
    match publisher::prove(refetch, &cx.cache_root, entry, decl, about) {
        Err(ProveError::Unproven { .. }) => {
            let record = entry.publisher.as_ref();
            Err(broken(
                entry,
                "publisher",
                format!(
                    "the Sigstore bundle skills.lock names ({}) is not kept in this machine's cache with that digest, and this run reads no sources; `skillpm install --locked` reads it again from {}",
                    record.map(|r| r.bundle.to_string()).unwrap_or_default(),
                    record.map(|r| r.url.as_str()).unwrap_or_default()
                ),
            ))
        }
        other => other,
    }
}

/// The repository, tag and asset name of a release asset's address
/// (`https://github.com/OWNER/REPO/releases/download/TAG/NAME`, as the
/// lock records it).
fn release_of(url: &str) -> Result<(GitSpec, String, String), String> {
    let bad = || format!("skills.lock's bundle address {url} is not a GitHub release asset");
    let rest = url
        .strip_prefix(git::GITHUB_WEB)
        .and_then(|r| r.strip_prefix('/'))
        .ok_or_else(bad)?;
    let parts: Vec<&str> = rest.splitn(6, '/').collect();
    let [owner, repo, "releases", "download", tag, asset] = parts.as_slice() else {
        return Err(bad());
    };
    let spec = GitSpec::new(&format!("{}/{owner}/{repo}", git::GITHUB_WEB), None, None)
        .map_err(|e| e.to_string())?;
    Ok((spec, (*tag).to_owned(), (*asset).to_owned()))
}

impl Source for GitOpened {
    fn offers(&self) -> Vec<Offer> {
        found_offers(&self.found)
    }

    fn looked_at(&self, _decl: &SourceDecl) -> String {
        let commit = &self.commit;
        format!("{} at {}", self.spec, &commit[..commit.len().min(12)])
    }

    fn discovery(&self) -> Option<&crate::skill::discover::RepoDiscovery> {
        Some(&self.found)
    }

    /// Imports each skill's folder of the checkout and records the
    /// commit → tree link that the prove step checks later.
    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        let GitOpened {
            spec,
            commit,
            checkout,
            found,
            publisher,
        } = self;
        let missing = |name: &str| not_offered(&decl.name, &found_offers(found), Some(found), name);
        let records = Unpacked::in_cache(ws.store.root());
        import_found(
            ws,
            found,
            names,
            missing,
            |skill| {
                Ok(FoundPlace {
                    dir: checkout.skill_dir(&skill.path)?,
                    label: format!("{spec} ({})", shown_path(&skill.path)),
                })
            },
            |name, skill, entry| {
                let subpath = spec.join_subpath(&skill.path);
                let key = Unpacked::git_key(&spec.url(), commit, subpath.as_deref());
                let _ = records.record(&key, &entry.digest);
                LockedSkill {
                    url: Some(spec.url()),
                    commit: Some(commit.to_owned()),
                    subpath,
                    publisher: publisher.clone(),
                    ..new_lock_entry(name, &decl.name, Format::Git, entry)
                }
            },
        )
    }
}

impl Kind for Git {
    /// A git form (`github:…`, `….git`, `ssh://…`, `git@…`, a github.com
    /// web URL), or a local repository (docs/design.md#formats) unless the
    /// folder publishes a registry (`.well-known/`): a registry kept in a
    /// git work tree stays an index source.
    fn recognizes(&self, at: &Written<'_>) -> anyhow::Result<Option<Option<String>>> {
        let spec = if is_git_form(at.text) {
            Some(spec_of(at.text, at.base_dir)?)
        } else {
            match at.url.as_ref().and_then(|u| u.to_file_path().ok()) {
                Some(dir) if !dir.join(".well-known").is_dir() => {
                    git::parse_git_spec(at.text, None, at.base_dir)?
                }
                _ => None,
            }
        };
        Ok(spec.map(|s| s.reference))
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Git]
    }

    fn open(&self, ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Box<dyn Source>> {
        Ok(Box::new(open(ws, decl)?))
    }

    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
        fetch_commits(ws, group)
    }

    /// The repository and commit links, then the ref link.
    fn prove(
        &self,
        cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        declared: &Declared,
        mut proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        proof.tree_recorded = check_commit(cx, entry, decl, declared)?;
        proof.git_ref = Some(check_ref(cx, entry, decl, declared)?);
        proof.publisher = prove_publisher(cx, entry, decl, declared)?;
        Ok(Some(proof))
    }

    /// A release of the tag it names may carry the commit's bundle
    /// (docs/provenance.md#publisher-identity-for-git-sources).
    fn carries_bundles(&self) -> bool {
        true
    }

    /// The commit the declared ref names now, for every skill.
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>> {
        let resolved = git::resolve(&spec_of(&decl.url, ws.root)?, &options(ws, decl)?)?;
        Ok(skills
            .iter()
            .map(|_| Ok((Some(resolved.commit.clone()), None)))
            .collect())
    }

    /// The ref resolved, that commit checked out in the store's temp
    /// folder and its skills discovered (the checkout is removed after).
    fn search(&self, net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
        let (ui, decl) = (net.ui, &target.decl);
        let subpath = clean_subpath(decl.path.as_deref())?;
        let spec = with_folder(spec_of(&decl.url, &target.base_dir)?, subpath.as_deref())?;
        let options = GitOptions::new(net.offline, bound_token_env(decl).as_deref())?
            .allowing_http(net.allow_http);
        ui.status("Resolving", spec.to_string());
        let resolved = git::resolve(&spec, &options)?;
        let store = crate::store::Store::open()?;
        let checkout = git::checkout(&spec, &resolved.commit, &store.tmp_dir(), &options)?;
        let found = checkout.discover();
        let warnings = (resolved.warnings.iter()).chain(&checkout.warnings);
        for warning in warnings.chain(&found.warnings) {
            ui.warn(format!("{spec}: {warning}"));
        }
        let at = spec.subpath.as_deref();
        let (publisher, publisher_refused) =
            listed_publisher(decl, &spec, &resolved.commit, &options);
        Ok(SearchResult {
            hits: (found_hits(&decl.name, "git", &spec.url(), at, &found).into_iter())
                .map(|hit| Hit {
                    commit: Some(resolved.commit.clone()),
                    publisher: publisher.clone(),
                    publisher_refused: publisher_refused.clone(),
                    ..hit
                })
                .collect(),
            problems: Vec::new(),
        })
    }

    /// Resolving the ref is the probe (the commit it names now). Keys do
    /// not apply: a commit pins the content.
    fn probe(&self, net: &Net<'_>, new: &NewSource<'_>) -> anyhow::Result<Probed> {
        use anyhow::Context as _;
        let decl = new.decl;
        if !decl.keys.is_empty() {
            return fail(
                Exit::Usage,
                format!(
                    "--key pins the signing key of an index; `{}` is a git repository, pinned by commit in skills.lock",
                    decl.url
                ),
            );
        }
        let spec = spec_of(&decl.url, new.root)?;
        if net.offline {
            return Ok(Probed::default());
        }
        let options = GitOptions::new(false, new.token_env)?.allowing_http(net.allow_http);
        net.ui.status("Resolving", spec.to_string());
        let resolved = git::resolve(&spec, &options)
            .with_context(|| format!("source `{}` was not added", decl.name))?;
        for warning in &resolved.warnings {
            net.ui.warn(warning);
        }
        Ok(Probed {
            index: None,
            commit: Some(resolved.commit),
        })
    }
}

pub fn options(ws: &Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<GitOptions> {
    Ok(GitOptions::new(ws.offline, bound_token_env(decl).as_deref())?.allowing_http(ws.allow_http))
}

/// The repository `text` names (relative paths against `base_dir`), a
/// source of this kind.
pub fn spec_of(text: &str, base_dir: &Path) -> anyhow::Result<GitSpec> {
    Ok(git::parse_git_spec(text, None, base_dir)?.ok_or_else(|| {
        OpError::new(
            Exit::Usage,
            format!("`{text}` looks like a git source but names no repository I can read"),
        )
    })?)
}

/// `spec` narrowed to `folder` (skills.toml's `path`) inside the folder it
/// names itself.
pub fn with_folder(mut spec: GitSpec, folder: Option<&str>) -> anyhow::Result<GitSpec> {
    if let Some(path) = folder {
        let joined = spec.join_subpath(path);
        spec.subpath = None;
        spec = spec.with_subpath(joined.as_deref())?;
    }
    Ok(spec)
}

/// Checks out each pinned commit once for all the skills it holds (one
/// archive download on GitHub, however many skills a marketplace repository
/// gives), at the deepest folder they share.
fn fetch_commits(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let mut by_commit: BTreeMap<(&str, &str), Vec<&LockedSkill>> = BTreeMap::new();
    for s in group {
        let (Some(url), Some(commit)) = (&s.url, &s.commit) else {
            return fail(
                Exit::Usage,
                format!(
                    "skills.lock entry `{}` is a git skill without url or commit; run `skillpm update {}`",
                    s.name, s.name
                ),
            );
        };
        by_commit.entry((url, commit)).or_default().push(s);
    }
    for ((url, commit), skills) in by_commit {
        let common = common_folder(skills.iter().map(|s| s.subpath.as_deref()));
        let spec = GitSpec::from_lock(url, common.as_deref())?;
        let opts = match ws.manifest.source(&skills[0].source) {
            Some(decl) => options(ws, decl)?,
            None => git::GitOptions::new(ws.offline, None)?.allowing_http(ws.allow_http),
        };
        ws.ui.status(
            "Fetching",
            format!("{} at {}", spec, &commit[..commit.len().min(12)]),
        );
        let checkout = git::checkout(&spec, commit, &ws.store.tmp_dir(), &opts)?;
        for w in &checkout.warnings {
            ws.ui.warn(w);
        }
        for s in skills {
            let subpath = s.subpath.as_deref().unwrap_or("");
            let rel = match &common {
                Some(c) => subpath
                    .strip_prefix(c.as_str())
                    .unwrap_or(subpath)
                    .trim_start_matches('/'),
                None => subpath,
            };
            let dir = checkout.skill_dir(rel)?;
            let label = format!("{url}@{commit} ({})", shown_path(subpath));
            let entry = ws.store.import_dir(&dir, &label, &s.name, ws.limits)?;
            check_tree(s, entry.digest, &label)?;
            let key = Unpacked::git_key(url, commit, s.subpath.as_deref());
            let _ = Unpacked::in_cache(ws.store.root()).record(&key, &entry.digest);
        }
    }
    Ok(())
}

/// The deepest folder holding every subpath; `None` (the repository root)
/// when one of them is the root or they share nothing.
fn common_folder<'a>(mut subpaths: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    let first: Vec<&str> = subpaths.next()??.split('/').collect();
    let mut common = first;
    for sub in subpaths {
        let parts: Vec<&str> = sub?.split('/').collect();
        let shared = common
            .iter()
            .zip(&parts)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(shared);
    }
    (!common.is_empty()).then(|| common.join("/"))
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

/// The git links: the lock names the declared repository and a full
/// commit, and the cache's record of that commit (if any) holds the
/// locked tree. Returns whether that record was there.
fn check_commit(
    cx: &ProveContext<'_>,
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
    match cx.unpacked.tree_of(&key) {
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

/// The ref link of a git entry: the locked commit is on the ref the
/// source declares (`git::prove_on_ref`). Online the repository is read
/// now; offline an earlier online proof on this machine (an
/// authenticated record) or the cached clone's refs must show it, else
/// the entry is refused naming `install --locked`.
fn check_ref(
    cx: &mut ProveContext<'_>,
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
    if let Some(done) = cx.recalled::<RefProof>(KIND, &key) {
        return Ok((*done).clone());
    }
    let options = match &cx.git_options {
        Some(make) => make(decl),
        None => None,
    }
    .unwrap_or_else(|| GitOptions {
        cache_dir: cx.cache_root.join(crate::git::CACHE_SUBDIR),
        offline: true,
        github: crate::git::GitHubOptions::from_env(bound_token_env(decl).as_deref()),
        limits: Default::default(),
        allow_http: false,
    });
    let records = Records::proofs(&cx.cache_root, GIT_REF_RECORDS);
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
                if !cx
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
        cx.remember(KIND, key, std::rc::Rc::new(proof.clone()));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::common_folder;

    #[test]
    fn common_folders() {
        let f = |subs: &[Option<&str>]| common_folder(subs.iter().copied());
        assert_eq!(f(&[Some("skills/pdf")]).as_deref(), Some("skills/pdf"));
        assert_eq!(
            f(&[Some("plugins/a/skills/pdf"), Some("plugins/a/skills/xlsx")]).as_deref(),
            Some("plugins/a/skills")
        );
        assert_eq!(
            f(&[Some("skills/pdf"), Some("skills/pdf-x")]).as_deref(),
            Some("skills")
        );
        assert_eq!(f(&[Some("a/x"), Some("b/x")]), None);
        assert_eq!(f(&[Some("a/x"), None]), None);
        assert_eq!(f(&[None]), None);
    }
}
