//! The index kind (docs/sources.md#index): a registry publishing
//! `/.well-known/agent-skills/index.json` (v0.2: one archive or SKILL.md
//! per skill, by digest) or the legacy `/.well-known/skills/` (v0.1: a list
//! of files per skill), over HTTP and `file://` alike. The index protocol is
//! [`resolve`]; the proof (`prove.rs`) walks from the declared source through
//! the verified (signed, when keys are pinned) index snapshot to the entry,
//! its artifact digest and the tree that artifact made.

pub mod format;
pub mod paths;
mod prove;
pub mod resolve;

pub use resolve::{
    EntryRequest, FetchedContent, IndexSource, ResolvedIndex, SourceError, detect_archive,
    download_entries, download_entries_each, download_entries_with, remember_validators, resolve,
    resolve_kept, signature_url,
};

use std::time::SystemTime;

use anyhow::Context as _;

use super::candidate::{
    self, Candidate, JudgedSkill, Offer, by_source, candidate, check_tree, clean_subpath,
    new_lock_entry, not_offered,
};
use super::location::Written;
use super::proof::{Declared, Proof, ProveContext, ProveError};
use super::workspace::{Workspace, fail};
use super::{Hit, IndexProbe, Kind, Latest, Net, NewSource, Probed, SearchResult, SearchTarget};
use crate::error::Exit;
use crate::net::fetch::{DownloadSpec, Fetcher};
use crate::printer::Printer;
use crate::project::lock::{Format, LockedSkill};
use crate::project::manifest::SourceDecl;
use crate::sources::index::format::{
    ArtifactType as IndexKind, Entry, EntryContent, Kept, ProblemKind,
};
use crate::store::StoreEntry;
use crate::store::unpacked::Unpacked;
use crate::unpack::ArtifactKind;

/// The index kind.
pub struct Index;

/// Fetches the source's index and checks its signature (when the source
/// pins keys), rollback and expiry.
fn open(ws: &mut Workspace<'_>, decl: &SourceDecl) -> anyhow::Result<ResolvedIndex> {
    open_kept(ws, decl, None)
}

/// [`open`], keeping the entries `keep` keeps (`resolve_kept`).
fn open_kept(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    keep: format::Keep<'_>,
) -> anyhow::Result<ResolvedIndex> {
    if let Some(path) = clean_subpath(decl.path.as_deref())? {
        return fail(
            Exit::Usage,
            format!(
                "source `{}` is a registry (an index), which has no folders: `path = \"{path}\"` applies to git and folder sources",
                decl.name
            ),
        );
    }
    let source = IndexSource::from_decl(decl, ws.root)?;
    let ahead = ws.audit_ahead;
    let fetcher = ws.fetcher()?;
    if ahead {
        crate::audit::warm_up();
    }
    let resolved = resolve_kept(fetcher, &source, SystemTime::now(), keep)
        .with_context(|| format!("cannot read source `{}`", decl.name))?;
    for problem in &resolved.index.problems {
        ws.ui.warn(format!("{}: {problem}", resolved.index_url));
    }
    Ok(resolved)
}

impl super::Source for ResolvedIndex {
    fn offers(&self) -> Vec<Offer> {
        (self.index.entries.iter())
            .map(|e| Offer {
                name: e.name.clone(),
                description: e.description.clone(),
                path: None,
            })
            .collect()
    }

    fn into_offers(self: Box<Self>) -> Vec<Offer> {
        (self.index.entries.into_iter())
            .map(|e| Offer {
                name: e.name,
                description: e.description,
                path: None,
            })
            .collect()
    }

    fn looked_at(&self, _decl: &SourceDecl) -> String {
        format!("the index {}", self.index_url)
    }

    fn resolve(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        resolve_entries(ws, decl, self, names)
    }
}

/// An index opened for `add --list` ([`Kind::open_listing`]): its offers,
/// each entry's name and description moved out as the index streamed, and
/// no entry kept.
struct Listing {
    index_url: url::Url,
    offers: Vec<Offer>,
}

impl super::Source for Listing {
    fn offers(&self) -> Vec<Offer> {
        self.offers.clone()
    }

    fn into_offers(self: Box<Self>) -> Vec<Offer> {
        self.offers
    }

    fn looked_at(&self, _decl: &SourceDecl) -> String {
        format!("the index {}", self.index_url)
    }

    /// Nothing to resolve: a listing keeps no entry (`add --list` resolves
    /// nothing).
    fn resolve(
        &self,
        _ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        names: &[String],
    ) -> Vec<anyhow::Result<Candidate>> {
        (names.iter())
            .map(|n| {
                fail(
                    Exit::Other,
                    format!(
                        "source `{}` was opened to list its skills only; `{n}` cannot be added from that listing",
                        decl.name
                    ),
                )
            })
            .collect()
    }
}

impl Kind for Index {
    /// Any http(s) or `file:` URL no other kind took.
    fn recognizes(&self, at: &Written<'_>) -> anyhow::Result<Option<Option<String>>> {
        Ok(at.url.is_some().then_some(None))
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Archive, Format::SkillMd, Format::Files]
    }

    fn asks_a_server_first(&self) -> bool {
        true
    }

    fn open(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
    ) -> anyhow::Result<Box<dyn super::Source>> {
        Ok(Box::new(open(ws, decl)?))
    }

    /// The offers only, moved out of each entry as the index streams: a
    /// 50,000-skill index is never held as entries (docs/performance.md).
    fn open_listing(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
    ) -> anyhow::Result<Box<dyn super::Source>> {
        let mut offers = Vec::new();
        let mut offer = |position, e: Entry| {
            let kept = Kept::Name(e.name.as_str().into());
            let (name, description) = (e.name, e.description);
            offers.push((
                position,
                Offer {
                    name,
                    description,
                    path: None,
                },
            ));
            kept
        };
        let resolved = open_kept(ws, decl, Some(&mut offer))?;
        // An entry with a problem (a name offered twice: every copy) is
        // not offered.
        let refused: std::collections::HashSet<usize> = (resolved.index.problems.iter())
            .map(|p| p.position)
            .collect();
        let offers = (offers.into_iter())
            .filter(|(position, _)| !refused.contains(position))
            .map(|(_, offer)| offer)
            .collect();
        Ok(Box::new(Listing {
            index_url: resolved.index_url,
            offers,
        }))
    }

    /// Artifacts by their digest (one batch of downloads, whatever their
    /// sources), v0.1 file lists from their source's current index.
    fn fetch(&self, ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
        if !group.is_empty() {
            crate::audit::warm_up();
        }
        let (artifacts, files): (Vec<&LockedSkill>, Vec<&LockedSkill>) = group
            .iter()
            .partition(|s| matches!(s.format, Format::Archive | Format::SkillMd));
        fetch_artifacts(ws, &artifacts)?;
        for files in by_source(&files).values() {
            fetch_file_lists(ws, files)?;
        }
        Ok(())
    }

    fn prove(
        &self,
        cx: &mut ProveContext<'_>,
        entry: &LockedSkill,
        decl: &SourceDecl,
        declared: &Declared,
        proof: Proof,
    ) -> Result<Option<Proof>, ProveError> {
        prove::prove_indexed(cx, entry, decl, declared, proof)
    }

    /// The digest the index lists for each skill now (a v0.1 file list,
    /// which publishes none, is fetched and its tree computed).
    fn latest(
        &self,
        ws: &mut Workspace<'_>,
        decl: &SourceDecl,
        skills: &[&LockedSkill],
    ) -> anyhow::Result<Vec<Latest>> {
        let resolved = &open(ws, decl)?;
        let mut out = Vec::new();
        for s in skills {
            let Some(entry) = resolved.index.entry(&s.name) else {
                out.push(Ok((None, None)));
                continue;
            };
            let id = match &entry.content {
                EntryContent::Artifact { digest, .. } => Some(digest.to_string()),
                EntryContent::Files { .. } => {
                    // No published digest: fetch the files and compute the tree.
                    let bar = indicatif::ProgressBar::hidden();
                    let fetcher = ws.fetcher()?.clone();
                    let fetched = download_entries_with(
                        &fetcher,
                        &[resolved.request(entry)],
                        ws.limits,
                        &bar,
                        |e| stored_file_list(ws, e),
                    );
                    match fetched.into_iter().next() {
                        Some(Ok(f)) => match f {
                            FetchedContent::Files { tree, .. } => Some(tree.to_string()),
                            FetchedContent::Artifact { digest, .. } => Some(digest.to_string()),
                        },
                        Some(Err(e)) => {
                            out.push(Err(format!("{e:#}")));
                            continue;
                        }
                        None => None,
                    }
                }
            };
            out.push(Ok((id, entry.version.clone())));
        }
        Ok(out)
    }

    /// Its artifacts carry bundles (docs/provenance.md).
    fn carries_bundles(&self) -> bool {
        true
    }

    /// The index resolved (signature checked), the entries that match the
    /// query as hits (the others are left out as the index streams) and
    /// the ones it skipped or refused (each warned about).
    fn search(&self, net: &Net<'_>, target: &SearchTarget) -> anyhow::Result<SearchResult> {
        let source = IndexSource::from_decl(&target.decl, &target.base_dir)?;
        let fetcher = net.fetcher.context("no HTTP client for this search")?;
        let query = &target.query;
        let mut matching = |_, e: Entry| match query.matches(&e.name, &e.description) {
            true => Kept::Whole(e),
            false => Kept::Name(e.name.into_boxed_str()),
        };
        let keep: format::Keep<'_> = match query.is_all() {
            true => None,
            false => Some(&mut matching),
        };
        let resolved = resolve_kept(fetcher, &source, SystemTime::now(), keep)?;
        warn_problems(net.ui, &resolved);
        let signed_by = resolved.signer.as_ref().map(|s| s.key_id.clone());
        let index_format = resolved.index.format.as_str();
        let index = resolved.index;
        // Moved out of the entries, not copied beside them.
        let hits = (index.entries.into_iter())
            .map(|entry| Hit {
                source: resolved.source.clone(),
                format: entry.format_label(),
                index_format,
                digest: entry.digest().map(|d| d.to_string()),
                url: entry.url().map(|u| u.to_string()),
                signed_by: signed_by.clone(),
                bundle: entry.sigstore.map(|b| *b),
                name: entry.name,
                description: entry.description,
                version: entry.version,
                ..Hit::default()
            })
            .collect();
        Ok(SearchResult {
            hits,
            problems: index.problems,
        })
    }

    /// Resolves the new index source exactly as installs will, signature
    /// included.
    fn probe(&self, net: &Net<'_>, new: &NewSource<'_>) -> anyhow::Result<Probed> {
        let (Some(fetcher), false) = (net.fetcher, net.offline) else {
            return Ok(Probed::default());
        };
        let (ui, decl) = (net.ui, new.decl);
        let source = IndexSource::from_decl_with(decl, new.root, new.user)?;
        ui.status(
            "Probing",
            source.url.as_ref().map(|u| u.as_str()).unwrap_or(&decl.url),
        );
        let resolved = resolve(fetcher, &source, SystemTime::now())
            .with_context(|| format!("source `{}` was not added", decl.name))?;
        warn_problems(ui, &resolved);
        let signature_published = resolved.signer.is_none().then(|| {
            let url = signature_url(&resolved.index.url);
            fetcher.get(&url, source.auth.as_ref(), 64 * 1024).is_ok()
        });
        Ok(Probed {
            index: Some(IndexProbe {
                index_url: resolved.index_url.to_string(),
                index_format: resolved.index.format,
                skills: resolved.index.entries.len(),
                problems: resolved.index.problems.len(),
                signer: resolved.signer,
                signature_published,
            }),
            commit: None,
        })
    }
}

fn resolve_entries(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    resolved: &ResolvedIndex,
    names: &[String],
) -> Vec<anyhow::Result<Candidate>> {
    let mut by_name = std::collections::HashMap::new();
    let mut entries: Vec<&Entry> = Vec::new();
    let offered: std::collections::HashMap<&str, &Entry> = (resolved.index.entries.iter())
        .map(|e| (e.name.as_str(), e))
        .collect();
    let wanted: Vec<&Entry> = names
        .iter()
        .filter_map(|n| offered.get(&**n).copied())
        .collect();
    // Warm cache: an artifact already unpacked in the store is reused,
    // checked and judged on every core (each entry on its own: its record,
    // marker and SKILL.md); candidates are made in order.
    let warm = crate::fs::parallel::map(&wanted, |entry| {
        stored_artifact(ws, entry).map(|stored| {
            let judged = judge_stored(ws, entry, &stored);
            (stored, judged)
        })
    });
    for (entry, warm) in wanted.into_iter().zip(warm) {
        match warm {
            Some((stored, judged)) => {
                let candidate = judged
                    .and_then(|judged| judged_candidate(ws, decl, resolved, entry, stored, judged));
                by_name.insert(entry.name.clone(), candidate);
            }
            None => entries.push(entry),
        }
    }
    let requests: Vec<_> = entries.iter().map(|e| resolved.request(e)).collect();
    let fetcher = if requests.is_empty() {
        None
    } else {
        match ws.fetcher().cloned() {
            Ok(fetcher) => Some(fetcher),
            Err(e) => {
                // The first keeps the error itself (its exit code); the rest say it.
                let message = format!("{e:#}");
                let mut out = vec![Err(e)];
                out.extend(
                    names
                        .iter()
                        .skip(1)
                        .map(|_| Err(anyhow::anyhow!(message.clone()))),
                );
                out.truncate(names.len());
                return out;
            }
        }
    };
    if let Some(fetcher) = fetcher {
        crate::audit::warm_up();
        let bar = ws.ui.bar(0, "Downloading", false);
        // Stored and judged as each arrives; candidates are made in order.
        let imported = work_while_downloading(
            ws,
            &fetcher,
            &requests,
            &bar,
            |i| format!("cannot download `{}`", entries[i].name),
            |entry, fetched| {
                let stored = import_fetched(ws, entry, fetched)?;
                remember_validators(&fetcher, entry, fetched);
                let judged = judge_stored(ws, entry, &stored)?;
                Ok((stored, judged))
            },
        );
        bar.finish_and_clear();
        for (entry, result) in entries.iter().zip(imported) {
            let candidate = result.and_then(|(imported, judged)| {
                judged_candidate(ws, decl, resolved, entry, imported, judged)
            });
            by_name.insert(entry.name.clone(), candidate);
        }
    }
    names
        .iter()
        .map(|n| {
            by_name.remove(n).unwrap_or_else(|| {
                fail(
                    Exit::NotFound,
                    format!("source `{}` offers no skill named `{n}`", decl.name),
                )
            })
        })
        .collect()
}

/// The store entry an index entry's artifact unpacked to before, when the
/// store still holds it whole (`Store::reuse_unpacked`): nothing to download.
fn stored_artifact(
    ws: &Workspace<'_>,
    entry: &Entry,
) -> Option<(StoreEntry, Format, Option<crate::digest::Digest>)> {
    let EntryContent::Artifact {
        digest, artifact, ..
    } = &entry.content
    else {
        return None;
    };
    let stored = ws
        .store
        .reuse_unpacked(digest, |tree| ws.store.remembered_tree(tree))?;
    let format = match artifact {
        IndexKind::SkillMd => Format::SkillMd,
        IndexKind::Archive => Format::Archive,
    };
    Some((stored, format, Some(*digest)))
}

/// What storing an entry's content gave: the entry, the lock's format and
/// the artifact digest (none for a v0.1 file list).
type Imported = (StoreEntry, Format, Option<crate::digest::Digest>);

/// Downloads the entries of `requests` and hands each to `work` (storing
/// it, say) as soon as all its downloads are there, on as many threads as
/// there are cores, while the other transfers go on
/// (docs/performance.md#what-the-measurements-decided). Results are in
/// request order (what is said about them is said later, in order); a failed
/// download keeps its error (and exit code), with `failed(i)` as its context.
fn work_while_downloading<T: Send>(
    ws: &Workspace<'_>,
    fetcher: &Fetcher,
    requests: &[EntryRequest<'_>],
    bar: &indicatif::ProgressBar,
    failed: impl Fn(usize) -> String,
    work: impl Fn(&Entry, &FetchedContent) -> anyhow::Result<T> + Sync,
) -> Vec<anyhow::Result<T>> {
    use std::sync::Mutex;

    let threads = crate::fs::parallel::cores().clamp(1, requests.len().max(1));
    let results: Mutex<Vec<Option<anyhow::Result<T>>>> =
        Mutex::new((0..requests.len()).map(|_| None).collect());
    let put = |i: usize, outcome: anyhow::Result<T>| {
        if let Ok(mut results) = results.lock()
            && let Some(slot) = results.get_mut(i)
        {
            *slot = Some(outcome);
        }
    };
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FetchedContent)>();
    let rx = Mutex::new(rx);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let job = match rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((i, fetched)) = job else { return };
                    put(i, work(requests[i].entry, &fetched));
                }
            });
        }
        download_entries_each(
            fetcher,
            requests,
            ws.limits,
            bar,
            |e| stored_file_list(ws, e),
            |i, result| match result.with_context(|| failed(i)) {
                Ok(fetched) => {
                    if let Err(lost) = tx.send((i, fetched)) {
                        let (i, _) = lost.0;
                        put(
                            i,
                            Err(anyhow::anyhow!("the store's import threads stopped")),
                        );
                    }
                }
                Err(e) => put(i, Err(e)),
            },
        );
        drop(tx);
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.resize_with(requests.len(), || None);
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a download went missing"))))
        .collect()
}

/// The store entry an earlier run made from a v0.1 file list, when the store
/// still holds it whole (`Store::reuse_unpacked`: a damaged one is
/// quarantined here, so its files are fetched again rather than confirmed).
fn stored_file_list(ws: &Workspace<'_>, entry: &Entry) -> Option<std::path::PathBuf> {
    let EntryContent::Files { files } = &entry.content else {
        return None;
    };
    let key = Unpacked::files_key(files.iter().map(|f| &f.url));
    ws.store
        .reuse_unpacked(&key, |tree| ws.store.remembered_tree(tree))
        .map(|stored| stored.path)
}

/// Judges a stored entry's content at the run's level and parses it
/// ([`candidate::judge_stored`]): its warnings, or the refusal.
fn judge_stored(
    ws: &Workspace<'_>,
    entry: &Entry,
    (store_entry, _, _): &Imported,
) -> anyhow::Result<JudgedSkill> {
    candidate::judge_stored(
        ws.level,
        (ws.store, store_entry),
        &entry.name,
        &entry.label(),
    )
}

/// The candidate for an index entry whose content is now in the store and
/// judged: its lock entry names the index snapshot and, when signed, the
/// signer.
fn judged_candidate(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    resolved: &ResolvedIndex,
    entry: &Entry,
    (store_entry, format, artifact): Imported,
    judged: JudgedSkill,
) -> anyhow::Result<Candidate> {
    let url = match &entry.content {
        EntryContent::Artifact { url, .. } => ws.lock_url(url),
        EntryContent::Files { .. } => ws.lock_url(&crate::sources::index::paths::file_url(
            &crate::sources::index::paths::index_dir(&resolved.index.url),
            &entry.name,
            "",
        )),
    };
    let locked = LockedSkill {
        version: entry.version.clone(),
        index: Some(ws.lock_url(&resolved.index_url)),
        index_digest: Some(resolved.snapshot),
        index_version: resolved.signer.as_ref().map(|s| s.version),
        url: Some(url),
        artifact,
        signer: resolved.signer.as_ref().map(|s| s.key_id.clone()),
        publisher: attested(ws, decl, entry, artifact.as_ref())?,
        ..new_lock_entry(&entry.name, &decl.name, format, &store_entry)
    };
    candidate(ws, locked, store_entry, judged)
}

/// The publisher of `entry`'s artifact, when its source declares one
/// (`crate::sources::publisher`): its bundle verified now and kept.
fn attested(
    ws: &mut Workspace<'_>,
    decl: &SourceDecl,
    entry: &Entry,
    artifact: Option<&crate::digest::Digest>,
) -> anyhow::Result<Option<crate::project::lock::Publisher>> {
    if decl.expected_publisher().is_none() {
        return Ok(None);
    }
    let Some(artifact) = artifact else {
        return fail(
            Exit::Integrity,
            format!(
                "`{}`: source `{}` declares a publisher, but a v0.1 file list has no artifact a Sigstore bundle could cover",
                entry.name, decl.name
            ),
        );
    };
    let auth = auth_for(ws, &decl.name)?;
    let fetcher = ws.fetcher()?.clone();
    let cache_root = ws.store.root().to_owned();
    let attested = crate::sources::publisher::attest(
        &fetcher,
        auth.as_ref(),
        &cache_root,
        decl,
        &entry.name,
        entry.sigstore.as_deref(),
        artifact,
    )?;
    Ok(attested.map(|(publisher, _)| publisher))
}

/// An index entry as named in messages: its URL, else its name.
/// Unpacks downloaded content into the store.
fn import_fetched(
    ws: &Workspace<'_>,
    entry: &Entry,
    content: &FetchedContent,
) -> anyhow::Result<(StoreEntry, Format, Option<crate::digest::Digest>)> {
    let label = entry.label();
    match content {
        FetchedContent::Artifact {
            path,
            digest,
            kind,
            format,
        } => {
            let (unpack_kind, lock_format) = match (kind, format) {
                (IndexKind::SkillMd, _) => (ArtifactKind::SkillMd, Format::SkillMd),
                (IndexKind::Archive, Some(archive)) => (*archive, Format::Archive),
                (IndexKind::Archive, None) => {
                    return fail(
                        Exit::Unsafe,
                        format!(
                            "{label}: neither its Content-Type, its extension nor its bytes say whether it is a .zip or a .tar.gz; the registry must serve one of those"
                        ),
                    );
                }
            };
            let stored =
                ws.store
                    .import_artifact(unpack_kind, path, &label, &entry.name, ws.limits)?;
            // The artifact → tree link that `provenance` checks later.
            let _ = Unpacked::in_cache(ws.store.root()).record(digest, &stored.digest);
            Ok((stored, lock_format, Some(*digest)))
        }
        FetchedContent::Files { files, .. } => {
            // Bytes held in memory are written here, once; the rest is read
            // from the verified file that holds it.
            let mut opened = Vec::with_capacity(files.len());
            for f in files {
                let reader = f.held.reader().with_context(|| {
                    let at = f.held.path().map(|p| p.display().to_string());
                    format!("cannot read {}", at.unwrap_or_else(|| f.path.clone()))
                })?;
                opened.push((f.path.clone(), reader));
            }
            let stored = ws
                .store
                .import_file_list(&label, &entry.name, ws.limits, opened)?;
            // The file list → tree link that `provenance` checks later.
            if let crate::sources::index::format::EntryContent::Files { files } = &entry.content {
                let key = Unpacked::files_key(files.iter().map(|f| &f.url));
                let _ = Unpacked::in_cache(ws.store.root()).record(&key, &stored.digest);
            }
            Ok((stored, Format::Files, None))
        }
    }
}

fn auth_for(
    ws: &Workspace<'_>,
    source_name: &str,
) -> anyhow::Result<Option<crate::net::fetch::Auth>> {
    Ok(match ws.manifest.source(source_name) {
        Some(decl) => IndexSource::from_decl(decl, ws.root)?.auth,
        None => None,
    })
}

fn fetch_artifacts(ws: &mut Workspace<'_>, skills: &[&LockedSkill]) -> anyhow::Result<()> {
    if skills.is_empty() {
        return Ok(());
    }
    let mut specs = Vec::with_capacity(skills.len());
    for s in skills {
        let (Some(url), Some(artifact)) = (&s.url, s.artifact) else {
            return fail(
                Exit::Usage,
                format!(
                    "skills.lock entry `{}` has format `{}` but no url or artifact digest; run `skillpm update {}`",
                    s.name,
                    s.format.as_str(),
                    s.name
                ),
            );
        };
        let url = ws
            .resolve_lock_url(url)
            .with_context(|| format!("skills.lock entry `{}` has an invalid url", s.name))?;
        specs.push(DownloadSpec::new(url, Some(artifact)).with_auth(auth_for(ws, &s.source)?));
    }
    let bar = ws.ui.bar(specs.len() as u64, "Downloading", false);
    let results = ws.fetcher()?.download_all(specs, &bar);
    bar.finish_and_clear();
    let mut jobs = Vec::with_capacity(skills.len());
    for (s, result) in skills.iter().zip(results) {
        let downloaded = result.with_context(|| format!("cannot fetch `{}`", s.name))?;
        let kind = match s.format {
            Format::SkillMd => ArtifactKind::SkillMd,
            _ => match detect_archive(
                downloaded.content_type.as_deref(),
                &downloaded.url,
                &downloaded.path,
            ) {
                Some(kind) => kind,
                None => {
                    return fail(
                        Exit::Unsafe,
                        format!("{}: not a .zip or .tar.gz archive", downloaded.url),
                    );
                }
            },
        };
        jobs.push((*s, kind, downloaded.path, downloaded.url.to_string()));
    }
    // Unpacking is independent per skill; errors are reported in lock order.
    let (store, limits) = (&ws.store, ws.limits);
    let imported = crate::fs::parallel::map(&jobs, |(s, kind, path, label)| {
        store.import_artifact(*kind, path, label, &s.name, limits)
    });
    for ((s, _, _, label), entry) in jobs.iter().zip(imported) {
        let entry = entry?;
        check_tree(s, entry.digest, label)?;
        if let Some(artifact) = &s.artifact {
            let _ = Unpacked::in_cache(ws.store.root()).record(artifact, &entry.digest);
        }
    }
    Ok(())
}

fn fetch_file_lists(ws: &mut Workspace<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let source_name = group[0].source.as_str();
    let decl = ws.manifest.require_source(source_name)?.clone();
    let resolved = &open(ws, &decl)?;
    let mut requests = Vec::new();
    for s in group {
        let entry = resolved.index.entry(&s.name).ok_or_else(|| {
            not_offered(&decl.name, &super::Source::offers(resolved), None, &s.name)
        })?;
        requests.push(resolved.request(entry));
    }
    let fetcher = ws.fetcher()?.clone();
    let bar = ws.ui.bar(0, "Downloading", false);
    // Stored as each arrives; checked against the lock in its order.
    let results = work_while_downloading(
        ws,
        &fetcher,
        &requests,
        &bar,
        |i| format!("cannot fetch `{}`", group[i].name),
        |entry, fetched| {
            let stored = import_fetched(ws, entry, fetched)?;
            remember_validators(&fetcher, entry, fetched);
            Ok(stored)
        },
    );
    bar.finish_and_clear();
    for (s, result) in group.iter().zip(results) {
        let (entry, _, _) = result?;
        check_tree(s, entry.digest, resolved.index_url.as_str())?;
    }
    Ok(())
}

/// One warning per entry an index skipped or refused.
pub fn warn_problems(ui: &Printer, resolved: &ResolvedIndex) {
    for problem in &resolved.index.problems {
        let label = match problem.kind {
            ProblemKind::UnknownType => "skipped",
            ProblemKind::Invalid => "refused",
        };
        ui.warn(format!("{} ({label}): {problem}", resolved.index_url));
    }
}
