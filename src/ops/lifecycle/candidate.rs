//! Resolving what a source offers into *candidates*: content already in the
//! store, hashed and parsed, with the lock entry that would pin it. Nothing
//! here writes the project; callers decide what gets approved and linked.

use std::path::Path;
use std::time::SystemTime;

use anyhow::Context as _;

use super::Session;
use crate::approve::{Dependency, Trust};
use crate::error::{Exit, OpError};
use crate::git::{self, GitOptions, GitSpec};
use crate::index::{ArtifactKind as IndexKind, Entry, EntryContent};
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::skill::openai_yaml::ToolKind;
use crate::skill::{self, SkillMd};
use crate::source::{self, ArchiveFormat, FetchedContent, Source, SourceSpec};
use crate::store::StoreEntry;
use crate::unpack::ArtifactKind;

/// A skill resolved into the store, ready for approval.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// What the lock will say (`approved` still to be decided).
    pub locked: LockedSkill,
    pub entry: StoreEntry,
    pub skill: SkillMd,
    pub trust: Trust,
    pub dependencies: Vec<Dependency>,
}

/// One skill a source offers (for the picker and error messages).
#[derive(Debug, Clone)]
pub(crate) struct Offer {
    pub name: String,
    pub description: String,
}

/// A declared source, opened: an index or a git repository.
pub(crate) enum Opened {
    Index {
        decl: SourceDecl,
        resolved: Box<source::ResolvedIndex>,
    },
    Git {
        decl: SourceDecl,
        spec: GitSpec,
        commit: String,
        checkout: Box<git::Checkout>,
        found: Vec<git::FoundSkill>,
    },
}

impl Opened {
    pub fn offers(&self) -> Vec<Offer> {
        match self {
            Opened::Index { resolved, .. } => resolved
                .index
                .entries
                .iter()
                .map(|e| Offer {
                    name: e.name.clone(),
                    description: e.description.clone(),
                })
                .collect(),
            Opened::Git { found, .. } => found
                .iter()
                .map(|f| Offer {
                    name: f.name.clone(),
                    description: f.description.clone(),
                })
                .collect(),
        }
    }

    /// A git source whose (sub)path is itself a skill folder.
    pub fn is_one_skill(&self) -> bool {
        matches!(self, Opened::Git { found, .. } if found.len() == 1 && found[0].path.is_empty())
    }

    fn decl(&self) -> &SourceDecl {
        match self {
            Opened::Index { decl, .. } | Opened::Git { decl, .. } => decl,
        }
    }

    /// The "not offered" error for `name` (exit 8), listing what is.
    pub fn missing(&self, name: &str) -> anyhow::Error {
        let names: Vec<String> = self.offers().into_iter().map(|o| o.name).collect();
        OpError::new(
            Exit::NotFound,
            format!(
                "source `{}` offers no skill named `{name}`; it offers: {}",
                self.decl().name,
                if names.is_empty() {
                    "nothing".to_owned()
                } else {
                    names.join(", ")
                }
            ),
        )
        .into()
    }
}

pub(crate) fn git_options(sess: &Session<'_>, decl: &SourceDecl) -> anyhow::Result<GitOptions> {
    Ok(GitOptions::new(
        sess.ctx.offline,
        decl.token_env.as_deref(),
    )?)
}

/// The git source `text` names (relative paths against `base_dir`), or
/// `None` for an index source. Besides the git forms, a `file://` URL or path
/// naming a local repository is git (DESIGN §2 rule 4), unless the folder
/// publishes a registry (`.well-known/`): a registry kept in a git work tree
/// stays an index source.
pub(crate) fn git_spec_for(text: &str, base_dir: &Path) -> anyhow::Result<Option<GitSpec>> {
    match SourceSpec::parse(text, base_dir)? {
        SourceSpec::Git(git_text) => Ok(Some(
            git::parse_git_spec(&git_text, None, base_dir)?.ok_or_else(|| {
                OpError::new(
                    Exit::Usage,
                    format!(
                        "`{git_text}` looks like a git source but names no repository I can read"
                    ),
                )
            })?,
        )),
        SourceSpec::Base(url) if url.scheme() == "file" => {
            let publishes_index = url
                .to_file_path()
                .is_ok_and(|dir| dir.join(".well-known").is_dir());
            if publishes_index {
                return Ok(None);
            }
            Ok(git::parse_git_spec(text, None, base_dir)?)
        }
        _ => Ok(None),
    }
}

/// Fetches a source's index (signature checked) or resolves its git ref and
/// checks the commit out.
pub(crate) fn open_source(sess: &mut Session<'_>, decl: &SourceDecl) -> anyhow::Result<Opened> {
    let root = sess.project.root.clone();
    if let Some(spec) = git_spec_for(&decl.url, &root)? {
        let opts = git_options(sess, decl)?;
        sess.ctx.ui.status("Resolving", spec.to_string());
        let resolved = git::resolve(&spec, &opts)?;
        for w in &resolved.warnings {
            sess.ctx.ui.warn(w);
        }
        let checkout = git::checkout(&spec, &resolved.commit, &sess.store.tmp_dir(), &opts)?;
        for w in &checkout.warnings {
            sess.ctx.ui.warn(w);
        }
        let discovery = checkout.discover();
        for w in &discovery.warnings {
            sess.ctx.ui.warn(w);
        }
        return Ok(Opened::Git {
            decl: decl.clone(),
            spec,
            commit: resolved.commit,
            checkout: Box::new(checkout),
            found: discovery.skills,
        });
    }
    let source = Source::from_decl(decl, &root)?;
    let fetcher = sess.fetcher()?;
    let resolved = source::resolve(fetcher, &source, SystemTime::now())
        .with_context(|| format!("cannot read source `{}`", decl.name))?;
    for problem in &resolved.index.problems {
        sess.ctx
            .ui
            .warn(format!("{}: {problem}", resolved.index_url));
    }
    Ok(Opened::Index {
        decl: decl.clone(),
        resolved: Box::new(resolved),
    })
}

/// Downloads, verifies and stores the named skills of an opened source.
/// Unknown names fail (exit 8) before anything is downloaded.
pub(crate) fn resolve_names(
    sess: &mut Session<'_>,
    opened: &Opened,
    names: &[String],
) -> anyhow::Result<Vec<Candidate>> {
    let offered: Vec<String> = opened.offers().into_iter().map(|o| o.name).collect();
    if let Some(name) = names.iter().find(|n| !offered.contains(n)) {
        return Err(opened.missing(name));
    }
    match opened {
        Opened::Index { decl, resolved } => resolve_index(sess, decl, resolved, names),
        Opened::Git {
            decl,
            spec,
            commit,
            checkout,
            found,
        } => names
            .iter()
            .map(|name| {
                let skill = found
                    .iter()
                    .find(|f| &f.name == name)
                    .ok_or_else(|| opened.missing(name))?;
                let dir = checkout.skill_dir(&skill.path)?;
                let label = format!(
                    "{spec} ({})",
                    if skill.path.is_empty() {
                        "."
                    } else {
                        &skill.path
                    }
                );
                let entry = sess.store.import_dir(&dir, &label, name, &sess.limits)?;
                let locked = LockedSkill {
                    name: name.clone(),
                    source: decl.name.clone(),
                    version: None,
                    format: Format::Git,
                    index: None,
                    url: Some(spec.url()),
                    commit: Some(commit.clone()),
                    subpath: spec.join_subpath(&skill.path),
                    artifact: None,
                    tree: entry.digest,
                    executables: entry.tree.executables(),
                    signer: None,
                    approved: None,
                };
                candidate(
                    sess,
                    locked,
                    entry,
                    Trust::GitCommit {
                        commit: commit.clone(),
                    },
                )
            })
            .collect(),
    }
}

fn resolve_index(
    sess: &mut Session<'_>,
    decl: &SourceDecl,
    resolved: &source::ResolvedIndex,
    names: &[String],
) -> anyhow::Result<Vec<Candidate>> {
    let entries: Vec<&Entry> = names
        .iter()
        .filter_map(|n| resolved.index.entry(n))
        .collect();
    let requests: Vec<_> = entries.iter().map(|e| resolved.request(e)).collect();
    let bar = sess.ctx.ui.bar(0, "Downloading", false);
    let fetched = source::download_entries(sess.fetcher()?, &requests, &bar);
    bar.finish_and_clear();
    let signer = resolved.signer.as_ref().map(|s| s.key_id.clone());
    let mut downloaded = Vec::with_capacity(entries.len());
    for (entry, result) in entries.into_iter().zip(fetched) {
        let fetched = result.with_context(|| format!("cannot download `{}`", entry.name))?;
        downloaded.push((entry, fetched));
    }
    // Unpacking is independent per skill; errors are reported in index order.
    let shared: &Session<'_> = sess;
    let imported = super::parallel::map(&downloaded, |(entry, fetched)| {
        import_fetched(shared, entry, &fetched.content)
    });
    let mut out = Vec::with_capacity(downloaded.len());
    for ((entry, _), result) in downloaded.iter().zip(imported) {
        let entry = *entry;
        let (store_entry, format, artifact) = result?;
        let trust = match (&signer, format) {
            (Some(key), _) => Trust::Signed { key: key.clone() },
            (None, Format::Files) => Trust::TrustOnFirstUse,
            (None, _) => Trust::DigestPinned,
        };
        let url = match &entry.content {
            EntryContent::Artifact { url, .. } => sess.lock_url(url),
            EntryContent::Files { .. } => sess.lock_url(&crate::index::paths::file_url(
                &crate::index::paths::index_dir(&resolved.index.url),
                &entry.name,
                "",
            )),
        };
        let locked = LockedSkill {
            name: entry.name.clone(),
            source: decl.name.clone(),
            version: entry.version.clone(),
            format,
            index: Some(sess.lock_url(&resolved.index_url)),
            url: Some(url),
            commit: None,
            subpath: None,
            artifact,
            tree: store_entry.digest,
            executables: store_entry.tree.executables(),
            signer: signer.clone(),
            approved: None,
        };
        out.push(candidate(sess, locked, store_entry, trust.clone())?);
    }
    Ok(out)
}

/// Unpacks downloaded content into the store.
pub(crate) fn import_fetched(
    sess: &Session<'_>,
    entry: &Entry,
    content: &FetchedContent,
) -> anyhow::Result<(StoreEntry, Format, Option<crate::digest::Digest>)> {
    let label = entry
        .url()
        .map(|u| u.to_string())
        .unwrap_or_else(|| entry.name.clone());
    match content {
        FetchedContent::Artifact {
            path,
            digest,
            kind,
            format,
        } => {
            let (unpack_kind, lock_format) = match (kind, format) {
                (IndexKind::SkillMd, _) => (ArtifactKind::SkillMd, Format::SkillMd),
                (IndexKind::Archive, Some(ArchiveFormat::Zip)) => {
                    (ArtifactKind::Zip, Format::Archive)
                }
                (IndexKind::Archive, Some(ArchiveFormat::TarGz)) => {
                    (ArtifactKind::TarGz, Format::Archive)
                }
                (IndexKind::Archive, None) => {
                    return Err(OpError::new(
                        Exit::Unsafe,
                        format!(
                            "{label}: neither its Content-Type, its extension nor its bytes say whether it is a .zip or a .tar.gz; the registry must serve one of those"
                        ),
                    )
                    .into());
                }
            };
            let stored =
                sess.store
                    .import_artifact(unpack_kind, path, &label, &entry.name, &sess.limits)?;
            Ok((stored, lock_format, Some(*digest)))
        }
        FetchedContent::Files { files, .. } => {
            let mut opened = Vec::with_capacity(files.len());
            for f in files {
                let file = std::fs::File::open(&f.local)
                    .with_context(|| format!("cannot read {}", f.local.display()))?;
                opened.push((f.path.clone(), file));
            }
            let stored = sess
                .store
                .import_file_list(&label, &entry.name, &sess.limits, opened)?;
            Ok((stored, Format::Files, None))
        }
    }
}

/// Parses the stored skill and gathers what the approval summary shows.
pub(crate) fn candidate(
    sess: &Session<'_>,
    locked: LockedSkill,
    entry: StoreEntry,
    trust: Trust,
) -> anyhow::Result<Candidate> {
    if let Err(e) = sess.state.save_tree(&entry.tree) {
        sess.ctx.ui.warn(format!(
            "could not remember the file list of {}: {e}",
            entry.digest
        ));
    }
    let (skill, dependencies) = read_stored_skill(&entry.path, &locked.name)?;
    Ok(Candidate {
        locked,
        entry,
        skill,
        trust,
        dependencies,
    })
}

/// The parsed SKILL.md of a store entry and its declared dependencies.
pub(crate) fn read_stored_skill(
    dir: &std::path::Path,
    name: &str,
) -> anyhow::Result<(SkillMd, Vec<Dependency>)> {
    let check = skill::check_skill_dir(dir, Some(name));
    let Some(skill) = check.skill.clone() else {
        let why = check
            .errors
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "SKILL.md is unreadable".into());
        return Err(OpError::new(Exit::Unsafe, format!("{}: {why}", dir.display())).into());
    };
    let dependencies = check
        .openai
        .map(|m| {
            m.dependencies
                .iter()
                .map(|d| Dependency {
                    kind: match d.kind {
                        ToolKind::EnvVar => "env_var".into(),
                        ToolKind::Mcp => "mcp".into(),
                    },
                    name: d.value.clone(),
                    present: match d.kind {
                        ToolKind::EnvVar => !d.is_missing_env_var(crate::ops::env_var_is_set),
                        ToolKind::Mcp => false,
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((skill, dependencies))
}
