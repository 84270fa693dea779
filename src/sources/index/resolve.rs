//! The index protocol (docs/design.md#formats): from what the user wrote to a
//! verified index, and from index entries to verified bytes in the cache.
//!
//! Resolution: a URL or path ending in `.json` is the index itself; anything
//! else is a base, probed at `.well-known/agent-skills/index.json` and then
//! the legacy `.well-known/skills/index.json` (trailing slash optional).
//! `file://` URLs and plain paths go through the very same steps as HTTP:
//! same probing, same size limits, same signature and rollback checks, so a
//! registry on disk and the same files on a web server resolve identically.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use indicatif::ProgressBar;
use serde::Serialize;
use url::Url;

use crate::digest::{Digest, TreeHasher};
use crate::error::{Classify, Exit};
use crate::net::fetch::{
    Auth, BodyOrigin, DownloadSpec, Downloaded, FetchError, Fetcher, FileValidators, Held,
    Revalidation, SmallDownload,
};
use crate::net::{TokenChoice, UserTokens};
use crate::project::manifest::SourceDecl;
use crate::sources::index::format::{
    ArtifactType, Entry, EntryContent, IndexError, Keep, ParsedIndex, check_index,
    parse_index_from, parse_index_kept,
};
use crate::sources::location::SpecError;
use crate::sources::tokens::token_choice;
use crate::trust::{self, PinnedKey, RollbackGuard, Signer, TrustError};
use crate::unpack::{FileList, Limits};

/// Signatures are tiny; anything bigger is not one.
const MAX_SIGNATURE_BYTES: u64 = 64 * 1024;
/// docs/design.md#unpacking defaults for a v0.1.0 file list fetched file by file.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
const MAX_SKILL_BYTES: u64 = 64 * 1024 * 1024;
/// An index up to this size (about 1,500 entries) is parsed from its bytes
/// in memory, once; a larger one as a stream from its snapshot file.
const PARSED_IN_MEMORY: usize = 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("source `{text}` is not a registry: it has no index to read")]
    Git { text: String },
    #[error(
        "no skill index found for source `{source_name}`: tried {tried}; point the source at the index.json URL if it lives elsewhere"
    )]
    NoIndex { source_name: String, tried: String },
    #[error(
        "${var} (the token-env of source `{source_name}`) holds a value that cannot be sent as an HTTP header"
    )]
    BadToken { source_name: String, var: String },
    #[error("source `{source_name}` names token-env ${var}, which is not set")]
    TokenUnset {
        source_name: String,
        var: String,
        #[source]
        cause: Box<FetchError>,
    },
    #[error("{url}: the v0.1.0 files of `{name}` add up to more than {limit} bytes; refused")]
    SkillTooLarge { url: Url, name: String, limit: u64 },
    /// A v0.1.0 file list the unpacking rules refuse as a whole.
    #[error(transparent)]
    Refused(#[from] crate::unpack::UnpackError),
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Trust(#[from] TrustError),
}

crate::classified!(SourceError);
impl Classify for SourceError {
    fn exit(&self) -> Exit {
        match self {
            SourceError::Spec(_) | SourceError::Git { .. } | SourceError::BadToken { .. } => {
                Exit::Usage
            }
            SourceError::NoIndex { .. } => Exit::Network,
            SourceError::TokenUnset { cause, .. } => cause.exit(),
            SourceError::SkillTooLarge { .. } => Exit::Unsafe,
            SourceError::Refused(e) => e.exit(),
            SourceError::Fetch(e) => e.exit(),
            SourceError::Index(e) => e.exit(),
            SourceError::Trust(e) => e.exit(),
        }
    }
}

/// The discovery paths probed under a base, in order.
pub const WELL_KNOWN_INDEXES: [&str; 2] = [
    ".well-known/agent-skills/index.json",
    ".well-known/skills/index.json",
];

/// The index URLs to try for a source at `url`, in order: the index itself
/// when it ends in `.json`, else the well-known paths below it.
pub fn candidates(url: &url::Url) -> Vec<url::Url> {
    if url.path().to_ascii_lowercase().ends_with(".json") {
        return vec![url.clone()];
    }
    let mut dir = url.clone();
    dir.set_query(None);
    dir.set_fragment(None);
    if !dir.path().ends_with('/') {
        let path = format!("{}/", dir.path());
        dir.set_path(&path);
    }
    WELL_KNOWN_INDEXES
        .iter()
        .filter_map(|p| dir.join(p).ok())
        .collect()
}

/// A source ready to resolve: where, which keys, which token.
#[derive(Debug, Clone)]
pub struct IndexSource {
    /// The `[[source]]` name, or the text itself for a one-off source.
    pub name: String,
    /// Where it is: an index (`….json`) or a base whose well-known paths
    /// are probed; `None` for a location that is no URL (no index there).
    pub url: Option<Url>,
    pub keys: Vec<PinnedKey>,
    pub auth: Option<Auth>,
    /// A `token-env` whose variable is unset (for a clearer 401 message).
    unset_token_env: Option<String>,
}

impl IndexSource {
    /// From a `[[source]]` table; relative paths are relative to `project_root`.
    /// The token is read from the environment now and kept only in memory,
    /// and only from a variable the user bound to the source's origin
    /// ([`token_choice`]).
    pub fn from_decl(decl: &SourceDecl, project_root: &Path) -> Result<Self, SourceError> {
        IndexSource::from_decl_with(decl, project_root, &UserTokens::load())
    }

    /// [`IndexSource::from_decl`] with these user bindings (`source add` probes
    /// with the binding it is about to record).
    pub fn from_decl_with(
        decl: &SourceDecl,
        project_root: &Path,
        user: &UserTokens,
    ) -> Result<Self, SourceError> {
        let url = crate::sources::location::parse(&decl.url, project_root)?.url;
        let keys = PinnedKey::parse_all(&decl.keys)?;
        let mut source = IndexSource {
            name: decl.name.clone(),
            url,
            keys,
            auth: None,
            unset_token_env: None,
        };
        let bound = match token_choice(decl, user) {
            TokenChoice::Bound { var } => Some(var),
            TokenChoice::Refused { .. } | TokenChoice::None => None,
        };
        if let Some(var) = &bound {
            match std::env::var(var).ok().filter(|t| !t.trim().is_empty()) {
                Some(token) => {
                    if let Some(url) = &source.url {
                        source.auth = Some(Auth::bearer(url, var, &token).ok_or_else(|| {
                            SourceError::BadToken {
                                source_name: decl.name.clone(),
                                var: var.clone(),
                            }
                        })?);
                    }
                }
                None => source.unset_token_env = Some(var.clone()),
            }
        }
        Ok(source)
    }
}

/// A source's index, fetched and verified.
#[derive(Debug, Clone, Serialize)]
pub struct ResolvedIndex {
    pub source: String,
    /// The index URL that was found (before any redirect).
    pub index_url: Url,
    pub index: ParsedIndex,
    /// Who signed it, when the source pins keys.
    pub signer: Option<Signer>,
    /// sha256 of the exact index bytes: the snapshot kept in the cache
    /// (`store::snapshots`) that lock entries resolved from it name.
    pub snapshot: Digest,
    pub origin: BodyOrigin,
    #[serde(skip)]
    pub auth: Option<Auth>,
}

impl ResolvedIndex {
    /// A download request for one of this index's entries.
    pub fn request<'a>(&'a self, entry: &'a Entry) -> EntryRequest<'a> {
        EntryRequest {
            entry,
            auth: self.auth.as_ref(),
        }
    }
}

/// Finds, fetches and verifies the index of `source`. With pinned keys the
/// signature must verify, its version must not be lower than any seen before
/// for this index URL, and it must not have expired at `now`. Only an index
/// that passed every check is cached.
pub fn resolve(
    fetcher: &Fetcher,
    source: &IndexSource,
    now: SystemTime,
) -> Result<ResolvedIndex, SourceError> {
    resolve_kept(fetcher, source, now, None)
}

/// [`resolve`], whose index holds only the entries `keep` accepts (and
/// every problem): `search` of a large index builds no more than it lists
/// (docs/performance.md, the 50,000-skill index). The checks, the cache
/// and the snapshot are those of the whole index.
pub fn resolve_kept(
    fetcher: &Fetcher,
    source: &IndexSource,
    now: SystemTime,
    keep: Keep<'_>,
) -> Result<ResolvedIndex, SourceError> {
    if source.url.is_none() {
        return Err(SourceError::Git {
            text: source.name.clone(),
        });
    }
    let mut body = fetch_index(fetcher, source)?;

    let (signer, signature_body) = (!source.keys.is_empty())
        .then(|| verify_index(fetcher, source, &body, now))
        .transpose()?
        .unzip();

    // Nothing unusable is cached. A small index is parsed once, from the
    // verified bytes; a large one has its shape checked first (no entry
    // built) and its entries parsed from the snapshot once the bytes are
    // let go (docs/performance.md, the 50,000-skill index).
    let mut keep = keep;
    let parsed = if body.bytes.len() <= PARSED_IN_MEMORY {
        Some(parse_index_kept(&body.bytes, &body.final_url, keep.take())?)
    } else {
        check_index(&body.bytes, &body.final_url)?;
        None
    };
    fetcher.remember(&body)?;
    if let Some(sig) = &signature_body {
        fetcher.remember(sig)?;
    }
    // Verified: keep it as a snapshot, so locks resolved from it can be
    // proven later without the network. A cache that cannot be written only
    // costs a network read on the next proof.
    let signature_text = signature_body
        .as_ref()
        .and_then(|s| std::str::from_utf8(&s.bytes).ok());
    let snapshots = crate::store::snapshots::Snapshots::in_cache(fetcher.cache().root());
    let (index, snapshot) = match (parsed, snapshots.put(&body.bytes, signature_text)) {
        (Some(index), Ok(snapshot)) => (index, snapshot),
        (Some(index), Err(_)) => (index, Digest::of_bytes(&body.bytes)),
        (None, Ok(snapshot)) => (
            parse_snapshot(
                &snapshots,
                snapshot,
                body.final_url.clone(),
                &mut body.bytes,
                keep,
            )?,
            snapshot,
        ),
        (None, Err(_)) => (
            parse_index_kept(&body.bytes, &body.final_url, keep)?,
            Digest::of_bytes(&body.bytes),
        ),
    };
    Ok(ResolvedIndex {
        source: source.name.clone(),
        index_url: body.url.clone(),
        index,
        signer,
        snapshot,
        origin: body.origin,
        auth: source.auth.clone(),
    })
}

/// The index of the snapshot just kept, parsed as a stream from its file
/// once `bytes` (its copy in memory) are freed, so a large index is never
/// held twice (docs/performance.md, the 50,000-skill index). The file is
/// hashed as it is read: bytes that are not the snapshot's are refused;
/// an unreadable file is parsed from `bytes` instead.
fn parse_snapshot(
    snapshots: &crate::store::snapshots::Snapshots,
    snapshot: Digest,
    url: Url,
    bytes: &mut Vec<u8>,
    keep: Keep<'_>,
) -> Result<ParsedIndex, IndexError> {
    let Ok(file) = snapshots.open(&snapshot) else {
        return parse_index_kept(bytes, &url, keep);
    };
    *bytes = Vec::new();
    let mut reader =
        std::io::BufReader::with_capacity(64 * 1024, crate::digest::HashingReader::new(file));
    let index = parse_index_from(&mut reader, &url, keep)?;
    let unread = std::io::copy(&mut reader, &mut std::io::sink());
    if unread.is_err() || reader.into_inner().finish() != snapshot {
        // Not the bytes that were verified: gone, so the next run keeps them.
        snapshots.discard(&snapshot);
        return Err(IndexError::Malformed {
            url,
            reason: format!(
                "the kept snapshot {snapshot} changed while it was read; run the command again"
            ),
        });
    }
    Ok(index)
}

/// The first of the source's candidate index URLs that answers. Not found
/// everywhere: the URLs tried (or, offline, the first cache miss).
fn fetch_index(
    fetcher: &Fetcher,
    source: &IndexSource,
) -> Result<crate::net::fetch::Body, SourceError> {
    let auth = source.auth.as_ref();
    let limit = fetcher.config().max_index_bytes;
    let mut tried = Vec::new();
    let mut offline_miss = None;
    for candidate in source.url.iter().flat_map(candidates) {
        match fetcher.get(&candidate, auth, limit) {
            Ok(body) => return Ok(body),
            Err(e) if e.is_not_found() => tried.push(candidate.to_string()),
            Err(e @ FetchError::Offline { .. }) => {
                tried.push(candidate.to_string());
                offline_miss.get_or_insert(e);
            }
            Err(e) => return Err(with_token_hint(source, e)),
        }
    }
    if let Some(miss) = offline_miss {
        return Err(miss.into());
    }
    Err(SourceError::NoIndex {
        source_name: source.name.clone(),
        tried: tried.join(", "),
    })
}

/// The signature of `body` by one of the source's pinned keys, checked for
/// expiry at `now` and against rollback; returns the signer and the
/// signature file.
fn verify_index(
    fetcher: &Fetcher,
    source: &IndexSource,
    body: &crate::net::fetch::Body,
    now: SystemTime,
) -> Result<(trust::Signer, crate::net::fetch::Body), SourceError> {
    let auth = source.auth.as_ref();
    let sig_url = signature_url(&body.final_url);
    let sig = match fetcher.get(&sig_url, auth, MAX_SIGNATURE_BYTES) {
        Ok(sig) => sig,
        Err(e) if e.is_not_found() => {
            return Err(TrustError::MissingSignature {
                what: sig_url.to_string(),
                reason: "the registry publishes no signature there".into(),
            }
            .into());
        }
        Err(e) => return Err(with_token_hint(source, e)),
    };
    let text = std::str::from_utf8(&sig.bytes).map_err(|_| TrustError::BadSignatureFile {
        what: sig_url.to_string(),
        reason: "it is not UTF-8 text".into(),
    })?;
    let signer = trust::verify_signed(body.url.as_str(), &body.bytes, text, &source.keys, now)?;
    RollbackGuard::new(fetcher.cache().state()).check_and_record(&body.url, &signer)?;
    Ok((signer, sig))
}

/// `…/index.json` → `…/index.json.minisig`.
pub fn signature_url(index_url: &Url) -> Url {
    let mut url = index_url.clone();
    let path = format!("{}.minisig", url.path());
    url.set_path(&path);
    url
}

fn with_token_hint(source: &IndexSource, e: FetchError) -> SourceError {
    match (&source.unset_token_env, &e) {
        (
            Some(var),
            FetchError::Status {
                status: 401 | 403, ..
            },
        ) => SourceError::TokenUnset {
            source_name: source.name.clone(),
            var: var.clone(),
            cause: Box::new(e),
        },
        _ => e.into(),
    }
}

/// One entry to download, with the token of the source it came from.
#[derive(Debug, Clone, Copy)]
pub struct EntryRequest<'a> {
    pub entry: &'a Entry,
    pub auth: Option<&'a Auth>,
}

/// An entry's bytes, verified and in `<cache>/downloads/`.
#[derive(Debug, Clone)]
pub enum FetchedContent {
    Artifact {
        path: PathBuf,
        /// The artifact digest (what the index pinned).
        digest: Digest,
        kind: ArtifactType,
        /// For archives: from Content-Type, else the URL's extension, else
        /// the file's magic bytes. `None` when none of them tells.
        /// `unpack::ArtifactKind::Zip` or `TarGz`, never `SkillMd`.
        format: Option<crate::unpack::ArtifactKind>,
    },
    /// A v0.1.0 file list. Each file is stored by its own digest; `tree` is
    /// the tree digest of the whole list (docs/design.md#digests), trust on first use.
    Files {
        files: Vec<FetchedFile>,
        tree: Digest,
    },
}

#[derive(Debug, Clone)]
pub struct FetchedFile {
    /// Relative path in the skill.
    pub path: String,
    /// The verified bytes: in memory (written once, into the store's
    /// staging tree), or in a verified file.
    pub held: Held,
    /// What the server said about these bytes, to remember once they are
    /// stored ([`remember_validators`]).
    pub validators: Option<FileValidators>,
}

/// Records the validators of a v0.1 file list's files (one record per
/// list), once its files are stored where the next run's 304 will find them.
pub fn remember_validators(fetcher: &Fetcher, entry: &Entry, content: &FetchedContent) {
    let (EntryContent::Files { files: list }, FetchedContent::Files { files, .. }) =
        (&entry.content, content)
    else {
        return;
    };
    let said: Vec<(&Url, Option<&FileValidators>)> = list
        .iter()
        .zip(files)
        .map(|(file, fetched)| (&file.url, fetched.validators.as_ref()))
        .collect();
    fetcher.remember_file_list(&said);
}

/// Downloads the artifacts (or v0.1.0 files) of every request in one batch,
/// `config.net.jobs` at a time. `bar`'s length is set to the number of downloads
/// and advances as each finishes. Results are in request order; each entry
/// fails or succeeds on its own.
pub fn download_entries(
    fetcher: &Fetcher,
    requests: &[EntryRequest<'_>],
    bar: &ProgressBar,
) -> Vec<Result<FetchedContent, SourceError>> {
    download_entries_with(fetcher, requests, &Limits::default(), bar, |_| None)
}

/// [`download_entries`], where `earlier` names the whole store entry an
/// earlier run made from a v0.1 file list: on a 304 its copy of a file is
/// used, once re-hashed (v0.1 files are kept nowhere else).
pub fn download_entries_with(
    fetcher: &Fetcher,
    requests: &[EntryRequest<'_>],
    limits: &Limits,
    bar: &ProgressBar,
    earlier: impl Fn(&Entry) -> Option<PathBuf>,
) -> Vec<Result<FetchedContent, SourceError>> {
    let mut results: Vec<Option<Result<FetchedContent, SourceError>>> =
        (0..requests.len()).map(|_| None).collect();
    download_entries_each(fetcher, requests, limits, bar, earlier, |i, result| {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(result);
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| Err(FetchError::Client("a download went missing".into()).into()))
        })
        .collect()
}

/// One v0.1 file's download.
type FileResult = Result<SmallDownload, FetchError>;

/// [`download_entries_with`], handing each entry to `ready` (with its index
/// in `requests`) as soon as all its downloads are there, on this thread:
/// the caller can store it while the other transfers go on. A v0.1.0 file
/// list is first judged whole by the rules it will be stored under
/// (`limits`: its count, names, duplicates and case collisions), so a list
/// they refuse costs no download.
pub fn download_entries_each(
    fetcher: &Fetcher,
    requests: &[EntryRequest<'_>],
    limits: &Limits,
    bar: &ProgressBar,
    earlier: impl Fn(&Entry) -> Option<PathBuf>,
    mut ready: impl FnMut(usize, Result<FetchedContent, SourceError>),
) {
    let mut artifacts = Vec::new();
    // For each artifact download, its request.
    let mut artifact_of = Vec::new();
    let mut files = Vec::new();
    // For each file download, its request and its place in the entry's list.
    let mut file_of = Vec::new();
    // Per request: the file downloads still to come, and those there.
    let mut waiting: Vec<(usize, Vec<Option<FileResult>>)> = Vec::with_capacity(requests.len());
    let revalidating = fetcher.may_revalidate_files();
    for (r, request) in requests.iter().enumerate() {
        let auth = request.auth.cloned();
        match &request.entry.content {
            EntryContent::Artifact { url, digest, .. } => {
                artifacts.push(DownloadSpec::new(url.clone(), Some(*digest)).with_auth(auth));
                artifact_of.push(r);
                waiting.push((0, Vec::new()));
            }
            EntryContent::Files { files: list } => {
                let paths: Vec<&str> = list.iter().map(|f| f.path.as_str()).collect();
                if let Err(refused) = FileList::check_names(&request.entry.label(), &paths, limits)
                {
                    waiting.push((0, Vec::new()));
                    ready(r, Err(refused.into()));
                    continue;
                }
                // The entry an earlier run stored from this list: a 304 may
                // confirm its copy of a file (re-hashed before use).
                let earlier = revalidating.then(|| earlier(request.entry)).flatten();
                // One record of validators for the whole list (saved by the
                // caller once the entry is stored: `remember_validators`).
                let mut known = if revalidating {
                    let urls: Vec<&Url> = list.iter().map(|f| &f.url).collect();
                    fetcher.file_list_validators(&urls)
                } else {
                    Vec::new()
                };
                known.resize(list.len(), None);
                for ((n, file), known) in list.iter().enumerate().zip(known) {
                    let mut spec =
                        DownloadSpec::new(file.url.clone(), file.digest).with_auth(auth.clone());
                    spec.max_bytes = Some(MAX_FILE_BYTES);
                    spec.revalidation = Revalidation::Given(known);
                    spec.copy_at = earlier.as_ref().map(|dir| dir.join(&file.path));
                    files.push(spec);
                    file_of.push((r, n));
                }
                waiting.push((list.len(), (0..list.len()).map(|_| None).collect()));
                if list.is_empty() {
                    ready(r, assemble_files(request.entry, Vec::new()));
                }
            }
        }
    }
    bar.set_length((artifacts.len() + files.len()) as u64);
    fetcher.download_each(artifacts, bar, |i, result| {
        if let Some(&r) = artifact_of.get(i) {
            let entry = requests[r].entry;
            ready(
                r,
                result
                    .map_err(SourceError::from)
                    .and_then(|d| assemble_artifact(entry, d)),
            );
        }
    });
    fetcher.download_small_each(files, bar, |i, result| {
        let Some(&(r, n)) = file_of.get(i) else {
            return;
        };
        let (left, got) = &mut waiting[r];
        got[n] = Some(result);
        *left -= 1;
        if *left == 0 {
            let downloads: Result<Vec<SmallDownload>, FetchError> =
                got.iter_mut().filter_map(Option::take).collect();
            let entry = requests[r].entry;
            ready(
                r,
                downloads
                    .map_err(SourceError::from)
                    .and_then(|d| assemble_files(entry, d)),
            );
        }
    });
}

fn assemble_artifact(entry: &Entry, artifact: Downloaded) -> Result<FetchedContent, SourceError> {
    let EntryContent::Artifact {
        artifact: kind,
        url,
        ..
    } = &entry.content
    else {
        return Err(FetchError::Client("an artifact went missing".into()).into());
    };
    let format = match kind {
        ArtifactType::SkillMd => None,
        ArtifactType::Archive => {
            detect_archive(artifact.content_type.as_deref(), url, &artifact.path)
        }
    };
    Ok(FetchedContent::Artifact {
        path: artifact.path,
        digest: artifact.digest,
        kind: *kind,
        format,
    })
}

fn assemble_files(
    entry: &Entry,
    downloads: Vec<SmallDownload>,
) -> Result<FetchedContent, SourceError> {
    let EntryContent::Files { files } = &entry.content else {
        return Err(FetchError::Client("a file list went missing".into()).into());
    };
    let total: u64 = downloads.iter().map(|d| d.size).sum();
    if total > MAX_SKILL_BYTES {
        return Err(SourceError::SkillTooLarge {
            url: entry.url().cloned().unwrap_or_else(|| files[0].url.clone()),
            name: entry.name.clone(),
            limit: MAX_SKILL_BYTES,
        });
    }
    let mut tree = TreeHasher::new();
    let fetched: Vec<FetchedFile> = files
        .iter()
        .zip(downloads)
        .map(|(file, d)| {
            tree.add(file.path.clone(), d.digest);
            FetchedFile {
                path: file.path.clone(),
                held: d.held,
                validators: d.validators,
            }
        })
        .collect();
    Ok(FetchedContent::Files {
        files: fetched,
        tree: tree.finish(),
    })
}

/// Content-Type first, then the URL's extension (docs/design.md#formats), then the bytes:
/// the one detection of `unpack::ArtifactKind`, narrowed to archives.
pub fn detect_archive(
    content_type: Option<&str>,
    url: &Url,
    path: &Path,
) -> Option<crate::unpack::ArtifactKind> {
    use crate::unpack::ArtifactKind;
    let archive = |kind| Some(kind).filter(|k| *k != ArtifactKind::SkillMd);
    content_type
        .and_then(ArtifactKind::from_content_type)
        .and_then(archive)
        .or_else(|| ArtifactKind::from_extension(url.path()).and_then(archive))
        .or_else(|| {
            let mut head = Vec::with_capacity(4);
            let file = std::fs::File::open(path).ok()?;
            std::io::Read::read_to_end(&mut std::io::Read::take(file, 4), &mut head).ok()?;
            ArtifactKind::from_magic(&head).and_then(archive)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_sits_beside_the_index() {
        let url = Url::parse("https://h.example/.well-known/agent-skills/index.json").unwrap();
        assert_eq!(
            signature_url(&url).as_str(),
            "https://h.example/.well-known/agent-skills/index.json.minisig"
        );
    }

    #[test]
    fn archive_format_prefers_content_type_then_extension_then_magic() {
        let dir = tempfile::tempdir().unwrap();
        let gz = dir.path().join("a");
        std::fs::write(&gz, [0x1f, 0x8b, 8, 0]).unwrap();
        let url = Url::parse("https://h/x.zip").unwrap();
        assert_eq!(
            detect_archive(Some("application/gzip"), &url, &gz),
            Some(crate::unpack::ArtifactKind::TarGz)
        );
        assert_eq!(
            detect_archive(Some("application/octet-stream"), &url, &gz),
            Some(crate::unpack::ArtifactKind::Zip)
        );
        let bare = Url::parse("https://h/download?id=1").unwrap();
        assert_eq!(
            detect_archive(None, &bare, &gz),
            Some(crate::unpack::ArtifactKind::TarGz)
        );
    }
}
