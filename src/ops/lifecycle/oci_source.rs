//! Skills from OCI registries (`oci://` sources, docs/hosting.md): resolve
//! a tag to a manifest digest, verify the cosign signature when the source
//! pins a key, stream the one layer (digest-checked) and unpack it with the
//! strict unpacker. The lock pins `oci://HOST/REPO@sha256:<manifest>` and
//! the layer digest; `install --locked/--frozen` pulls by that digest.

use anyhow::Context as _;

use super::Session;
use super::candidate::{Candidate, Offer, candidate, judge, new_lock_entry};
use super::materialize::check_tree;
use crate::error::{Exit, OpError};
use crate::fetch::Fetcher;
use crate::ops::fail;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::provenance::Unpacked;
use crate::sources::oci::cosign::{self, CosignKey};
use crate::sources::oci::{self, Artifact, Credential, OciError, OciRef, Registry};
use crate::store::StoreEntry;
use crate::unpack::ArtifactKind;

/// An opened OCI source: one skill (a reference that names one), or a
/// namespace whose skills are `NAMESPACE/NAME`.
pub(crate) struct OciOpened {
    pub declared: OciRef,
    fetcher: Fetcher,
    credential: Option<Credential>,
    key: Option<CosignKey>,
    /// The one skill the reference names, with its name.
    pub one: Option<(String, Artifact)>,
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
    ctx: &crate::ops::Context,
    decl: &SourceDecl,
    token_var: Option<&str>,
) -> anyhow::Result<(OciRef, Option<Credential>, Option<CosignKey>)> {
    use crate::net::TokenChoice;
    let declared = OciRef::parse(&decl.url).map_err(|reason| OciError::Reference {
        text: decl.url.clone(),
        reason,
    })?;
    let choice = match token_var {
        Some(var) => TokenChoice::Bound {
            var: var.to_owned(),
        },
        None => crate::source::token_choice(decl, &crate::net::UserTokens::load()),
    };
    let var = match choice {
        TokenChoice::Bound { var } => Some(var),
        TokenChoice::Refused { reason, .. } => {
            ctx.ui.warn(reason);
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
            Some(Credential::from_token(&var, &value))
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

fn fetcher(sess: &Session<'_>) -> anyhow::Result<Fetcher> {
    crate::ops::source::fetcher_within(sess.ctx, &sess.limits)
}

/// The declared source opened for work by locked digests (nothing listed
/// or picked yet): `install --locked` and `outdated`.
fn opened_by_digest(sess: &Session<'_>, decl: &SourceDecl) -> anyhow::Result<OciOpened> {
    let (declared, credential, key) = parts(sess.ctx, decl, None)?;
    Ok(OciOpened {
        declared,
        fetcher: fetcher(sess)?,
        credential,
        key,
        one: None,
        listed: Vec::new(),
    })
}

/// Opens the source: a reference with a tag or digest, or one whose
/// `latest` is a skill artifact, is one skill; anything else a namespace.
pub(crate) fn open(sess: &Session<'_>, decl: &SourceDecl) -> anyhow::Result<OciOpened> {
    let (declared, credential, key) = parts(sess.ctx, decl, None)?;
    let fetcher = fetcher(sess)?;
    sess.ctx.ui.status("Resolving", declared.to_string());
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
                Err(e) => sess.ctx.ui.warn(e.to_string()),
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
fn artifact_name(artifact: &Artifact) -> String {
    artifact
        .name
        .clone()
        .unwrap_or_else(|| artifact.repo.last_part().to_owned())
}

/// Verifies (cosign, when pinned), downloads and stores one artifact.
fn store_artifact(
    sess: &Session<'_>,
    opened: &OciOpened,
    registry: &Registry<'_>,
    artifact: &Artifact,
    name: &str,
) -> anyhow::Result<StoreEntry> {
    if let Some(key) = &opened.key {
        cosign::verify(registry, &artifact.repo.repository, &artifact.manifest, key)?;
    }
    let max = sess.limits.max_skill_size;
    let downloaded = registry.blob(&artifact.repo.repository, &artifact.layer, max)?;
    let label = artifact.pinned().to_string();
    let entry = sess.store.import_artifact(
        ArtifactKind::TarGz,
        &downloaded.path,
        &label,
        name,
        &sess.limits,
    )?;
    // The layer → tree link that `provenance` checks later.
    let _ = Unpacked::in_cache(sess.store.root()).record(&downloaded.digest, &entry.digest);
    Ok(entry)
}

/// Candidates for `names`, one result per name.
pub(crate) fn resolve(
    sess: &mut Session<'_>,
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
            let (name, tag) = match super::add::tagged_name(asked) {
                Some((n, t)) => (n, Some(t.to_owned())),
                None => (
                    asked.as_str(),
                    sess.manifest
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
            let entry = store_artifact(sess, opened, &registry, &artifact, name)
                .with_context(|| format!("cannot install `{name}` from {}", artifact.repo))?;
            let locked = LockedSkill {
                url: Some(artifact.pinned().to_string()),
                artifact: Some(artifact.layer_digest()?),
                version: artifact.version.clone().or(artifact.tag.clone()),
                ..new_lock_entry(name, &decl.name, Format::Oci, &entry)
            };
            let label = artifact.pinned().to_string();
            let judged = judge(sess, &entry.path, name, false, &label)?;
            candidate(sess, locked, entry, judged)
        })
        .collect()
}

/// Resolves `reference`; a repository without `latest` (asked for by
/// default) is a not-found error that lists the tags it has, to pick one
/// with `add NAME@TAG`.
fn resolve_or_name_tags(registry: &Registry<'_>, reference: &OciRef) -> anyhow::Result<Artifact> {
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
pub(crate) fn locked_ref(skill: &LockedSkill) -> anyhow::Result<OciRef> {
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
pub(crate) fn fetch_locked(sess: &mut Session<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let decl = sess.manifest.require_source(&group[0].source)?.clone();
    let opened = opened_by_digest(sess, &decl)?;
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
        sess.ctx.ui.status("Pulling", pinned.to_string());
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
        let entry = store_artifact(sess, &opened, &registry, &artifact, &s.name)?;
        check_tree(s, entry.digest, &pinned.to_string())?;
        let _ = sess.state.save_tree(&entry.tree);
    }
    Ok(())
}

/// What each locked skill's tag (or `latest`) points at now, for `outdated`:
/// the manifest digest, compared with the pinned one.
pub(crate) fn upstream_digests(
    sess: &Session<'_>,
    decl: &SourceDecl,
    locked: &[&LockedSkill],
) -> anyhow::Result<Vec<(Option<String>, Option<String>)>> {
    let opened = opened_by_digest(sess, decl)?;
    let registry = opened.registry()?;
    Ok(locked
        .iter()
        .map(|s| {
            let repo = locked_ref(s).ok()?.repo();
            let recorded = sess
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
        .map(|found| found.unwrap_or((None, None)))
        .collect())
}

/// `source add` of an OCI source: the registry answers for the reference
/// (one skill, or a namespace), with the credentials installs will use.
pub(crate) fn probe(
    ctx: &crate::ops::Context,
    decl: &SourceDecl,
    token_var: Option<&str>,
) -> anyhow::Result<()> {
    let (declared, credential, key) = parts(ctx, decl, token_var)?;
    let fetcher = crate::ops::source::fetcher(ctx)?;
    let registry = Registry::new(&fetcher, &declared, credential)?;
    ctx.ui.status("Probing", declared.to_string());
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

/// The skills an OCI namespace lists through the catalog, with their
/// descriptions (for `search`).
pub(crate) fn search_listing(
    ctx: &crate::ops::Context,
    decl: &SourceDecl,
) -> anyhow::Result<Vec<(String, String, Option<String>)>> {
    let (declared, credential, _) = parts(ctx, decl, None)?;
    let fetcher = crate::ops::source::fetcher(ctx)?;
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
        out.push((
            artifact_name(&artifact),
            artifact.description.clone().unwrap_or_default(),
            artifact.version.or(artifact.tag),
        ));
    }
    Ok(out)
}
