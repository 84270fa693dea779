//! The OCI kind (docs/sources.md#oci, `oci://` sources, docs/hosting.md):
//! resolve a tag to a manifest digest, verify the cosign signature when the
//! source pins a key and the Sigstore bundle referring to the manifest when
//! it declares a publisher (docs/provenance.md#bundles-on-oci-artifacts), stream the one layer (digest-checked) and unpack it
//! with the strict unpacker. The lock pins `oci://HOST/REPO@sha256:<manifest>`
//! and the layer digest; `install --locked/--frozen` pulls by that digest.
//! The protocol itself is the client beside this file (`super`).

use anyhow::Context as _;

use super::cosign::{self, CosignKey};
use super::referrers;
use super::{OciError, OciRef, Registry, RegistryLogin, ResolvedArtifact};
use crate::error::{Exit, OpError};
use crate::net::fetch::Fetcher;
use crate::printer::Printer;
use crate::project::lock::{Format, LockedSkill, Publisher};
use crate::project::manifest::SourceDecl;
use crate::sources::candidate::{
    Candidate, Offer, candidate, check_tree, judge_stored, new_lock_entry,
};
use crate::sources::location::Written;
use crate::sources::oci;
use crate::sources::proof::{Declared, Proof, ProveContext, ProveError, broken};
use crate::sources::publisher;
use crate::sources::tokens::token_choice;
use crate::sources::workspace::{self, fetcher_within};
use crate::sources::workspace::{Workspace, fail};
use crate::sources::{
    Hit, Kind, Latest, Net, NewSource, Probed, SearchResult, SearchTarget, Source,
};
use crate::store::StoreEntry;
use crate::store::unpacked::Unpacked;
use crate::unpack::ArtifactKind;

/// The OCI kind.
pub struct Oci;

impl Source for OciOpened {
    fn offers(&self) -> Vec<Offer> {
        OciOpened::offers(self)
    }

    fn looked_at(&self, _decl: &SourceDecl) -> String {
        match &self.one {
            Some((_, artifact)) => format!("the OCI artifact {}", artifact.pinned()),
            None => format!(
                "the OCI registry namespace {} ({} repositories listed)",
                self.declared,
                self.listed.len()
            ),
        }
    }

    /// A namespace need not list its skills: the registry says "not found".
    fn lists_all(&self) -> bool {
        self.one.is_some()
    }

    fn is_one_skill(&self) -> bool {
        self.one.is_some()
    }

    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        resolve(ws, decl, self, names)
    }
}

impl Kind for Oci {
    /// `oci://HOST/NS[/NAME][:TAG]`.
    fn recognizes(&self, at: &Written<'_>) -> anyhow::Result<Option<Option<String>>> {
        if !at.text.starts_with(oci::SCHEME) {
            return Ok(None);
        }
        OciRef::parse(at.text).map_err(|e| at.not_a_source(&e))?;
        Ok(Some(None))
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Oci]
    }

    /// A reference with a tag or digest, or one whose `latest` is a skill
    /// artifact, is one skill; anything else a namespace.
    fn open(&self, ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<Box<dyn Source>> {
        Ok(Box::new(open(ws, decl)?))
    }

    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
        for group in crate::sources::candidate::by_source(group).values() {
            fetch_locked(ws, group)?;
        }
        Ok(())
    }

    fn prove(
        &self,
        cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        _declared: &Declared,
        mut proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        proof.tree_recorded = check_pinned(cx, entry, decl)?;
        match prove_publisher(cx, entry, decl) {
            Err(ProveError::Unproven { .. }) => Ok(None),
            Err(e) => Err(e),
            Ok(publisher) => {
                proof.publisher = publisher;
                Ok(Some(proof))
            }
        }
    }

    /// What each locked skill's tag (or `latest`) points at now: the
    /// manifest digest, compared with the pinned one.
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>> {
        upstream_digests(ws, decl, skills)
    }

    /// Its artifacts carry bundles (docs/provenance.md).
    fn carries_bundles(&self) -> bool {
        true
    }

    /// The skills an OCI namespace lists through the catalog, with their
    /// descriptions (or the one skill a reference names).
    fn search(&self, net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
        let decl = SourceDecl {
            path: None,
            token_env: crate::sources::tokens::bound_token_env(&target.decl),
            ..target.decl.clone()
        };
        Ok(SearchResult {
            hits: search_listing(net, &decl)?,
            problems: Vec::new(),
        })
    }

    fn probe(&self, net: &Net<'_>, new: &NewSource<'_>) -> anyhow::Result<Probed> {
        if !new.decl.keys.is_empty() {
            return fail(
                Exit::Usage,
                "--key pins a minisign index key; an OCI source pins a cosign key with --cosign-key FILE",
            );
        }
        if !net.offline {
            probe(net.ui, net.allow_http, new.decl, new.token_env)
                .with_context(|| format!("source `{}` was not added", new.decl.name))?;
        }
        Ok(Probed::default())
    }
}

/// An opened OCI source: one skill (a reference that names one), or a
/// namespace whose skills are `NAMESPACE/NAME`.
pub struct OciOpened {
    pub declared: OciRef,
    fetcher: Fetcher,
    credential: Option<RegistryLogin>,
    key: Option<CosignKey>,
    /// The one skill the reference names, with its name.
    pub one: Option<(String, ResolvedArtifact)>,
    /// A namespace's skills, as far as the registry lists them.
    pub listed: Vec<String>,
}

impl OciOpened {
    fn registry(&self) -> anyhow::Result<Registry<'_>> {
        Ok(Registry::new(
            &self.fetcher,
            &self.declared,
            self.credential.clone(),
        )?)
    }

    pub fn offers(&self) -> Vec<Offer> {
        match &self.one {
            Some((name, artifact)) => vec![Offer {
                name: name.clone(),
                description: artifact.description.clone().unwrap_or_default(),
                path: Some(self.declared.to_string()),
            }],
            None => self
                .listed
                .iter()
                .map(|n| Offer {
                    name: n.clone(),
                    description: String::new(),
                    path: Some(self.declared.child(n).to_string()),
                })
                .collect(),
        }
    }
}

/// The source's reference, credential and key. The credential: the token
/// variable the user bound to the registry's origin (`source add …
/// --token-env`, or `token_var` while that binding is being made), or the
/// host's `SKILLPM_TOKEN_…` variable, under the one rule of
/// `crate::net::choose_token` (docs/network.md); else Docker's config.
fn parts(
    ui: &Printer,
    decl: &SourceDecl,
    token_var: Option<&str>,
) -> anyhow::Result<(OciRef, Option<RegistryLogin>, Option<CosignKey>)> {
    parts_with(&|reason| ui.warn(reason), decl, token_var)
}

/// [`parts`], saying a refused token binding through `warn`.
fn parts_with(
    warn: &dyn Fn(String),
    decl: &SourceDecl,
    token_var: Option<&str>,
) -> anyhow::Result<(OciRef, Option<RegistryLogin>, Option<CosignKey>)> {
    use crate::net::TokenChoice;
    let declared = OciRef::parse(&decl.url).map_err(|reason| OciError::Reference {
        text: decl.url.clone(),
        reason,
    })?;
    let choice = match token_var {
        Some(var) => TokenChoice::Bound {
            var: var.to_owned(),
        },
        None => token_choice(decl, &crate::net::UserTokens::load()),
    };
    let var = match choice {
        TokenChoice::Bound { var } => Some(var),
        TokenChoice::Refused { reason, .. } => {
            warn(reason);
            None
        }
        TokenChoice::None => None,
    };
    let credential = match var {
        Some(var) => {
            let value = std::env::var(&var).ok().filter(|t| !t.trim().is_empty());
            let Some(value) = value else {
                return fail(
                    Exit::Usage,
                    format!(
                        "source `{}` needs the token in ${var}, which is not set",
                        decl.name
                    ),
                );
            };
            Some(RegistryLogin::from_token(&var, &value))
        }
        None => match oci::auth::docker_config_path() {
            Some(path) => oci::auth::from_docker_config(&path, &declared.registry)?,
            None => None,
        },
    };
    let key = decl
        .cosign_key
        .as_deref()
        .map(|k| {
            CosignKey::from_base64(k).map_err(|reason| OciError::CosignKey {
                path: format!("cosign-key of source `{}` in skills.toml", decl.name),
                reason,
            })
        })
        .transpose()?;
    Ok((declared, credential, key))
}

fn fetcher(ws: &Workspace<'_>) -> anyhow::Result<Fetcher> {
    fetcher_within(ws.ui, ws.offline, ws.allow_http, ws.limits)
}

/// The declared source opened for work by locked digests (nothing listed
/// or picked yet): `install --locked` and `outdated`.
fn opened_by_digest(ws: &Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<OciOpened> {
    let (declared, credential, key) = parts(ws.ui, decl, None)?;
    Ok(OciOpened {
        declared,
        fetcher: fetcher(ws)?,
        credential,
        key,
        one: None,
        listed: Vec::new(),
    })
}

/// Opens the source: a reference with a tag or digest, or one whose
/// `latest` is a skill artifact, is one skill; anything else a namespace.
fn open(ws: &Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<OciOpened> {
    let (declared, credential, key) = parts(ws.ui, decl, None)?;
    let fetcher = fetcher(ws)?;
    ws.ui.status("Resolving", declared.to_string());
    let registry = Registry::new(&fetcher, &declared, credential.clone())?;
    let pinned = declared.tag.is_some() || declared.digest.is_some();
    let mut one = None;
    let mut listed = Vec::new();
    match oci::resolve(&registry, &declared) {
        Ok(artifact) => {
            one = Some((artifact_name(&artifact), artifact));
        }
        Err(OciError::NotFound { .. }) if !pinned => {
            // A namespace: list what the registry lets us see.
            let prefix = format!("{}/", declared.repository);
            match registry.catalog() {
                Ok(repos) => {
                    listed = repos
                        .iter()
                        .filter_map(|r| r.strip_prefix(&prefix))
                        .filter(|rest| !rest.contains('/'))
                        .map(str::to_owned)
                        .collect();
                }
                Err(e) => ws.ui.warn(e.to_string()),
            }
        }
        Err(e) => {
            return Err(e).with_context(|| format!("source `{}`", decl.name));
        }
    }
    drop(registry);
    Ok(OciOpened {
        declared,
        fetcher,
        credential,
        key,
        one,
        listed,
    })
}

/// The skill's name: its `org.stacklok.skillet.skill.name` annotation,
/// else the repository's last part.
fn artifact_name(artifact: &ResolvedArtifact) -> String {
    artifact
        .name
        .clone()
        .unwrap_or_else(|| artifact.repo.last_part().to_owned())
}

/// Verifies (cosign, when pinned), downloads and stores one artifact.
fn store_artifact(
    ws: &Workspace<'_>,
    opened: &OciOpened,
    registry: &Registry<'_>,
    artifact: &ResolvedArtifact,
    name: &str,
) -> anyhow::Result<StoreEntry> {
    if let Some(key) = &opened.key {
        cosign::verify(registry, &artifact.repo.repository, &artifact.manifest, key)?;
    }
    let max = ws.limits.max_skill_size;
    let downloaded = registry.blob(&artifact.repo.repository, &artifact.layer, max)?;
    let label = artifact.pinned().to_string();
    let entry = ws.store.import_artifact(
        ArtifactKind::TarGz,
        &downloaded.path,
        &label,
        name,
        ws.limits,
    )?;
    // The layer → tree link that `provenance` checks later.
    let _ = Unpacked::in_cache(ws.store.root()).record(&downloaded.digest, &entry.digest);
    Ok(entry)
}

/// Candidates for `names`, one result per name.
fn resolve(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    opened: &OciOpened,
    names: &[String],
) -> Vec<anyhow::Result<Candidate>> {
    let registry = match opened.registry() {
        Ok(r) => r,
        Err(e) => {
            return names
                .iter()
                .map(|_| Err(anyhow::anyhow!("{e:#}")))
                .collect();
        }
    };
    names
        .iter()
        .map(|asked| {
            // `NAME@TAG`, else the tag skills.toml records for it, else `latest`.
            let (name, tag) = match tagged_name(asked) {
                Some((n, t)) => (n, Some(t.to_owned())),
                None => (
                    asked.as_str(),
                    ws.manifest
                        .skills()
                        .get(asked.as_str())
                        .and_then(|d| d.version.clone()),
                ),
            };
            let name = &name.to_owned();
            let artifact = match &opened.one {
                Some((one, artifact)) if one == name => artifact.clone(),
                Some((one, _)) => {
                    return fail(
                        Exit::NotFound,
                        format!(
                            "source `{}` ({}) is the one skill `{one}`, not `{name}`",
                            decl.name, decl.url
                        ),
                    );
                }
                None => {
                    let mut reference = opened.declared.child(name);
                    reference.tag = tag;
                    resolve_or_name_tags(&registry, &reference)
                        .with_context(|| format!("`{name}` in source `{}`", decl.name))?
                }
            };
            let publisher = attest(ws, decl, &registry, &artifact, name)?;
            let entry = store_artifact(ws, opened, &registry, &artifact, name)
                .with_context(|| format!("cannot install `{name}` from {}", artifact.repo))?;
            let locked = LockedSkill {
                url: Some(artifact.pinned().to_string()),
                artifact: Some(artifact.layer_digest()?),
                version: artifact.version.clone().or(artifact.tag.clone()),
                publisher,
                ..new_lock_entry(name, &decl.name, Format::Oci, &entry)
            };
            let label = artifact.pinned().to_string();
            let judged = judge_stored(ws.level, (ws.store, &entry), name, &label)?;
            candidate(ws, locked, entry, judged)
        })
        .collect()
}

/// The publisher of `artifact`, when its source declares one
/// (`crate::sources::publisher`): a Sigstore bundle referring to its
/// manifest, verified now and kept.
fn attest(
    ws: &Workspace<'_>,
    decl: &SourceDecl,
    registry: &Registry<'_>,
    artifact: &ResolvedArtifact,
    name: &str,
) -> anyhow::Result<Option<Publisher>> {
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    ws.ui.status(
        "Verifying",
        format!("the Sigstore bundle of {}", artifact.pinned()),
    );
    let found = referrers::bundles(registry, &artifact.repo.repository, &artifact.manifest)?;
    let found = found.into_iter().map(|f| (f.at, f.bytes)).collect();
    let why = format!(
        "no Sigstore bundle refers to manifest {} (neither the referrers API nor the tag {})",
        artifact.manifest,
        super::client::referrers_tag(&artifact.manifest)
    );
    let about = crate::trust::sigstore::About::digest(&artifact.manifest);
    let what = publisher::what(name, decl);
    let kept = publisher::keep_verified(ws.store.root(), decl, &what, found, &about, &why)?;
    Ok(kept.map(|(p, _)| p))
}

/// The publisher link of a locked OCI skill: its kept bundle (else the one
/// its record names, read from the registry again) verified for the pinned
/// manifest digest.
fn prove_publisher(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
) -> Result<Option<crate::trust::sigstore::Verified>, ProveError> {
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    let pinned = entry.url.as_deref().and_then(|u| OciRef::parse(u).ok());
    let subject = pinned.as_ref().and_then(|p| p.digest);
    let fetcher = cx.fetcher();
    let refetch = |record: &Publisher| -> Result<Vec<u8>, String> {
        let fetcher = fetcher.ok_or("this run reads no sources")?;
        let at = OciRef::parse(&record.url)
            .ok()
            .filter(|r| r.digest.is_some())
            .ok_or_else(|| {
                format!(
                    "skills.lock's bundle location {} is not an OCI reference by digest",
                    record.url
                )
            })?;
        let (_, credential, _) = parts_with(&|_| (), decl, None).map_err(|e| format!("{e:#}"))?;
        let registry = Registry::new(fetcher, &at, credential).map_err(|e| e.to_string())?;
        let digest = at.digest.ok_or("no digest")?;
        referrers::bundle_at(&registry, &at.repository, &digest)
            .map_err(|e| format!("cannot read its Sigstore bundle: {e}"))
    };
    let refetch: Option<publisher::Refetch<'_>> = fetcher.is_some().then_some(&refetch);
    let subject = subject.as_ref().map(crate::trust::sigstore::About::digest);
    publisher::prove(refetch, &cx.cache_root, entry, decl, subject)
}

/// Resolves `reference`; a repository without `latest` (asked for by
/// default) is a not-found error that lists the tags it has, to pick one
/// with `add NAME@TAG`.
fn resolve_or_name_tags(
    registry: &Registry<'_>,
    reference: &OciRef,
) -> anyhow::Result<ResolvedArtifact> {
    match oci::resolve(registry, reference) {
        Err(OciError::NotFound { what })
            if reference.tag.is_none() && reference.digest.is_none() =>
        {
            let tags = registry.tags(&reference.repository).unwrap_or_default();
            if tags.is_empty() {
                return Err(OciError::NotFound { what }.into());
            }
            fail(
                Exit::NotFound,
                format!(
                    "{reference} has no `latest` tag; it has {}: pick one with `skillpm add NAME@TAG`",
                    tags.join(", ")
                ),
            )
        }
        other => Ok(other?),
    }
}

/// The pinned reference of a locked OCI skill.
pub fn locked_ref(skill: &LockedSkill) -> anyhow::Result<OciRef> {
    let url = skill.url.as_deref().unwrap_or_default();
    match OciRef::parse(url) {
        Ok(r) if r.digest.is_some() => Ok(r),
        _ => fail(
            Exit::Usage,
            format!(
                "skills.lock gives `{}` the OCI reference {url:?}, which pins no manifest digest; run `skillpm update {}`",
                skill.name, skill.name
            ),
        ),
    }
}

/// Pulls locked OCI skills by manifest digest: the manifest must hash to
/// it, its layer must be the locked one, and the unpacked tree the locked
/// tree (exit 3 otherwise).
fn fetch_locked(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let decl = ws.manifest.require_source(&group[0].source)?.clone();
    let opened = opened_by_digest(ws, &decl)?;
    let registry = opened.registry()?;
    for s in group {
        let pinned = locked_ref(s)?;
        if !opened.declared.repo().contains(&pinned.repo()) {
            return fail(
                Exit::Integrity,
                format!(
                    "skills.lock fetches `{}` from {pinned}, outside source `{}` ({})",
                    s.name, decl.name, decl.url
                ),
            );
        }
        ws.ui.status("Pulling", pinned.to_string());
        let artifact = oci::resolve(&registry, &pinned)?;
        if Some(artifact.layer_digest()?) != s.artifact {
            return Err(OpError::new(
                Exit::Integrity,
                format!(
                    "manifest {pinned} holds layer {}, but skills.lock says {}",
                    artifact.layer.digest,
                    s.artifact
                        .map(|d| d.to_string())
                        .unwrap_or_else(|| "none".into())
                ),
            )
            .into());
        }
        let entry = store_artifact(ws, &opened, &registry, &artifact, &s.name)?;
        check_tree(s, entry.digest, &pinned.to_string())?;
    }
    Ok(())
}

/// What each locked skill's tag (or `latest`) points at now, for `outdated`:
/// the manifest digest, compared with the pinned one.
fn upstream_digests(
    ws: &Workspace<'_>,
    decl: &SourceDecl,
    locked: &[&LockedSkill],
) -> anyhow::Result<Vec<Latest>> {
    let opened = opened_by_digest(ws, decl)?;
    let registry = opened.registry()?;
    Ok(locked
        .iter()
        .map(|s| {
            let repo = locked_ref(s).ok()?.repo();
            let recorded = ws
                .manifest
                .skills()
                .get(&s.name)
                .and_then(|d| d.version.clone());
            let tag = match opened.declared.repository == repo.repository {
                true => opened.declared.tag.clone(),
                false => recorded,
            };
            let tagged = OciRef { tag, ..repo };
            let a = oci::resolve(&registry, &tagged).ok()?;
            Some((Some(a.manifest.to_string()), a.version.clone().or(a.tag)))
        })
        .map(|found| Ok(found.unwrap_or((None, None))))
        .collect())
}

/// `source add` of an OCI source: the registry answers for the reference
/// (one skill, or a namespace), with the credentials installs will use.
fn probe(
    ui: &Printer,
    allow_http: bool,
    decl: &SourceDecl,
    token_var: Option<&str>,
) -> anyhow::Result<()> {
    let (declared, credential, key) = parts(ui, decl, token_var)?;
    let fetcher = workspace::fetcher(ui, false, allow_http)?;
    let registry = Registry::new(&fetcher, &declared, credential)?;
    ui.status("Probing", declared.to_string());
    match oci::resolve(&registry, &declared) {
        Ok(artifact) => {
            if let Some(key) = &key {
                cosign::verify(
                    &registry,
                    &artifact.repo.repository,
                    &artifact.manifest,
                    key,
                )?;
            }
            Ok(())
        }
        Err(OciError::NotFound { .. }) if declared.tag.is_none() && declared.digest.is_none() => {
            // A namespace; its tag list answers only for repositories, so
            // the catalog (when allowed) is all there is to ask.
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

fn search_listing(net: &Net<'_>, decl: &SourceDecl) -> anyhow::Result<Vec<Hit>> {
    let (ui, offline, allow_http) = (net.ui, net.offline, net.allow_http);
    let (declared, credential, _) = parts(ui, decl, None)?;
    let fetcher = workspace::fetcher(ui, offline, allow_http)?;
    let registry = Registry::new(&fetcher, &declared, credential)?;
    let repos: Vec<OciRef> = match oci::resolve(&registry, &declared) {
        Ok(_) => vec![declared.clone()],
        Err(OciError::NotFound { .. }) => {
            let prefix = format!("{}/", declared.repository);
            registry
                .catalog()?
                .iter()
                .filter(|r| {
                    r.strip_prefix(&prefix)
                        .is_some_and(|rest| !rest.contains('/'))
                })
                .map(|r| OciRef {
                    repository: r.clone(),
                    tag: None,
                    digest: None,
                    ..declared.clone()
                })
                .collect()
        }
        Err(e) => return Err(e.into()),
    };
    let mut out = Vec::new();
    for repo in repos {
        // No `latest`: the last tag the registry lists.
        let found = oci::resolve(&registry, &repo).or_else(|_| {
            let tag = registry.tags(&repo.repository)?.pop();
            oci::resolve(
                &registry,
                &OciRef {
                    tag,
                    ..repo.clone()
                },
            )
        });
        let Ok(artifact) = found else {
            continue;
        };
        let name = artifact_name(&artifact);
        out.push(Hit {
            source: decl.name.clone(),
            url: Some(format!("{}/{name}", decl.url.trim())),
            name,
            description: artifact.description.clone().unwrap_or_default(),
            version: artifact.version.or(artifact.tag),
            format: "oci",
            index_format: "oci",
            ..Hit::default()
        });
    }
    Ok(out)
}

/// `NAME@TAG` (an OCI source's tag for one skill): the name and the tag.
pub fn tagged_name(text: &str) -> Option<(&str, &str)> {
    let (name, tag) = text.split_once('@')?;
    (crate::skill::is_valid_name(name) && super::reference::valid_tag(tag)).then_some((name, tag))
}

/// The OCI links (docs/hosting.md): declared source → manifest digest
/// (the lock's `url` names a repository inside the declared namespace, or
/// the declared repository, at a sha256 digest) → layer digest (the
/// lock's `artifact`; the manifest was checked to list it when it was
/// pulled) → tree (the cache's record of what that layer unpacked to,
/// when there is one). Returns whether that record was there.
fn check_pinned(
    cx: &ProveContext<'_>,
    entry: &LockedSkill,
    decl: &SourceDecl,
) -> Result<bool, ProveError> {
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
    match cx.unpacked.tree_of(&layer) {
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

/// `--cosign-key FILE` read into what skills.toml keeps; only for OCI sources.
/// `url` is the source's location as given, `cwd` what a relative `path`
/// is relative to.
pub fn cosign_key(
    url: &str,
    path: Option<&std::path::Path>,
    cwd: &std::path::Path,
) -> anyhow::Result<Option<String>> {
    let Some(path) = path else {
        return Ok(None);
    };
    if !url.trim().starts_with(super::SCHEME) {
        return fail(
            Exit::Usage,
            format!("--cosign-key applies to OCI sources (oci://…), not to `{url}`"),
        );
    }
    let path = cwd.join(path);
    let bad = |reason: String| OciError::CosignKey {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let key = CosignKey::from_pem(&text).map_err(bad)?;
    Ok(Some(key.to_base64()))
}
