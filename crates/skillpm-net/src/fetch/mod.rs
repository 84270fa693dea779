//! Getting bytes from a registry: HTTP(S) and `file://` alike.
//!
//! One [`Fetcher`] per run owns one shared HTTP client and a small runtime
//! that drives it; its methods are blocking so `ops` stays plain code, and
//! [`Fetcher::download_all`] runs any number of downloads with bounded
//! parallelism under one progress bar.
//!
//! What it guarantees:
//! * **Timeouts**: connect, idle-read (a stalled body fails, a slow live
//!   one does not), a minimum rate (a body dripping a byte every few seconds
//!   fails once the idle timeout has passed) and an overall deadline per
//!   transfer, retries included. See [`crate::env`] for the knobs.
//! * **Retries** with jittered exponential backoff on connection errors,
//!   timeouts, 429/5xx and bodies cut short; the whole body is inside the
//!   retry (the client's one loop, [`crate::Http::retrying`]; each
//!   attempt is one [`crate::Http::send_once`]). Never on other 4xx, TLS errors, size limits, digest mismatch or
//!   a body below the minimum rate. `Retry-After` is honoured.
//! * **One run, one view of each origin** (docs/network.md): the retry
//!   budget is per origin and per run. An origin that used it up is
//!   unreachable for the rest of the run: every later request to it fails at
//!   once with the same reason. A small document fetched once (an index)
//!   is kept for the run, and so is "not found", so each source is read once
//!   however many skills name it. Clones of a [`Fetcher`] share all of this.
//! * **Redirects** followed by hand: https→http refused, a bearer token only
//!   ever sent to its source's origin.
//! * **Indexes** are fetched with `If-None-Match`/`If-Modified-Since` against
//!   the body cached under `<cache>/index/` (written only once the caller has
//!   verified it, see [`Fetcher::remember`]).
//! * **Artifacts** stream into `<cache>/tmp/` while hashed, are fsynced,
//!   checked against the expected digest, and only then renamed to
//!   `<cache>/downloads/sha256-<hex>`. A digest already there is never fetched
//!   again; a failure leaves nothing behind.
//! * **Small files** (v0.1 file lists, [`Fetcher::download_small_each`]) are
//!   kept in memory within a budget per batch (`memory`) and handed to the
//!   caller as each finishes, which writes them once, into the store's
//!   staging folder; a body past the budget takes the artifact path above.
//!   A 304 for one is confirmed from `downloads/` or from the caller's copy
//!   ([`DownloadSpec::copy_at`]), only if the bytes still hash right.
//! * **Offline**: no socket is ever opened; what is not cached is exit 6.
//!   `file://` sources still work (reading a file opens no socket).

mod download;
mod exchange;
mod http;
mod index_cache;
mod memory;
mod validators;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::ProgressBar;
use url::Url;

use crate::cache::{NoCacheDir, layout};
use crate::digest::Digest;
use crate::error::{Classify, Exit};
use crate::{Detail, NetError, Settings, Stop, Why};

pub use exchange::{Exchange, Reply, Verb};
pub use memory::{Held, SmallDownload};

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(
        "{url} is not in the cache and --offline forbids the network; run once without --offline to fill the cache"
    )]
    Offline { url: String },
    #[error("{url}: not found")]
    NotFound { url: String },
    #[error("{url}: the server answered {status}{hint}")]
    Status {
        url: String,
        status: u16,
        hint: String,
    },
    #[error(
        "cannot fetch {url}: {why} ({attempts} {tries})\n  {advice}",
        tries = if *attempts == 1 { "attempt" } else { "attempts" },
        advice = why.advice()
    )]
    Transport {
        url: String,
        attempts: u32,
        why: Why,
        #[source]
        detail: Detail,
    },
    #[error(transparent)]
    Unreachable(crate::Unreachable),
    #[error(
        "{url}: the server asked to retry after {seconds}s, longer than skillpm waits; try again later"
    )]
    RetryTooLate { url: String, seconds: u64 },
    #[error("cannot fetch {url}: {why} (not retried)\n  {advice}", why = Why::Tls, advice = Why::Tls.advice())]
    Tls {
        url: String,
        #[source]
        detail: Detail,
    },
    #[error(transparent)]
    PlainHttp(NetError),
    #[error(transparent)]
    Redirect(crate::RedirectRefused),
    #[error(
        "{url}: more than {limit} bytes; refused (the limit exists so a hostile server cannot fill the disk)"
    )]
    TooLarge { url: String, limit: u64 },
    #[error(
        "{url}: digest mismatch: expected {expected}, got {actual}; the artifact was discarded"
    )]
    DigestMismatch {
        url: String,
        expected: Digest,
        actual: Digest,
    },
    #[error("{url}: skillpm cannot fetch `{scheme}` URLs (only https, http and file)")]
    UnsupportedScheme { url: String, scheme: String },
    #[error("cannot read {path}: {source}")]
    Local {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{name}={value:?} is not usable: {reason}")]
    Setting {
        name: &'static str,
        value: String,
        reason: String,
    },
    #[error("cannot start the HTTP client: {0}")]
    Client(String),
    #[error(transparent)]
    Cache(#[from] NoCacheDir),
}

crate::classified!(FetchError);
impl Classify for FetchError {
    fn exit(&self) -> Exit {
        match self {
            FetchError::Offline { .. } => Exit::Locked,
            FetchError::NotFound { .. }
            | FetchError::Status { .. }
            | FetchError::Transport { .. }
            | FetchError::Unreachable(_)
            | FetchError::RetryTooLate { .. }
            | FetchError::Tls { .. }
            | FetchError::UnsupportedScheme { .. }
            | FetchError::Local { .. } => Exit::Network,
            FetchError::TooLarge { .. } => Exit::Unsafe,
            FetchError::PlainHttp(e) => e.exit(),
            FetchError::Redirect(refused) => refused.exit(),
            FetchError::DigestMismatch { .. } => Exit::Integrity,
            FetchError::Setting { .. } => Exit::Usage,
            FetchError::Io { .. } | FetchError::Client(_) | FetchError::Cache(_) => Exit::Other,
        }
    }
}

impl FetchError {
    /// Whether this is "there is nothing at that URL" (404, 410, missing file):
    /// what source probing moves past.
    pub fn is_not_found(&self) -> bool {
        matches!(self, FetchError::NotFound { .. })
    }

    /// What a failed write of `path` (in the cache) means.
    pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> FetchError + Copy + '_ {
        move |source| FetchError::Io {
            path: path.to_owned(),
            source,
        }
    }

    pub(crate) fn too_large(url: &Url, limit: u64) -> FetchError {
        FetchError::TooLarge {
            url: url.to_string(),
            limit,
        }
    }
}

/// A bearer token bound to the one origin it may be sent to: the network
/// policy's own (`crate::Auth`).
pub use crate::Auth;

/// What one fetcher obeys: the network policy's settings (timeouts,
/// retries, jobs: [`Settings`], one home) and the fetcher's own limits.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    pub net: Settings,
    /// Plain `http://` to hosts other than this machine (`--allow-http`).
    pub allow_http: bool,
    /// Caps on bytes actually received (not on what headers claim).
    pub max_index_bytes: u64,
    pub max_artifact_bytes: u64,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            net: Settings::default(),
            allow_http: false,
            max_index_bytes: 16 * 1024 * 1024,
            max_artifact_bytes: 64 * 1024 * 1024,
        }
    }
}

impl FetchConfig {
    /// Defaults, the network's from the environment ([`crate::env`]).
    pub fn from_env() -> Result<Self, FetchError> {
        let net = Settings::from_env().map_err(|b| FetchError::Setting {
            name: b.name,
            value: b.value,
            reason: b.reason,
        })?;
        Ok(FetchConfig {
            net,
            ..FetchConfig::default()
        })
    }
}

/// One failed attempt of a transfer, for the client's retry loop.
pub(crate) type FetchFailure = crate::Failure<FetchError>;

impl From<FetchError> for FetchFailure {
    fn from(e: FetchError) -> Self {
        FetchFailure::Fatal(e)
    }
}

/// Runs `attempt` under the client's retry loop ([`crate::Http::retrying`]:
/// the budget per origin, backoff, `Retry-After`, the notices), in the
/// fetcher's words.
async fn with_retries<T, F, Fut>(shared: &Shared, url: &Url, attempt: F) -> Result<T, FetchError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, FetchFailure>>,
{
    shared
        .http
        .retrying(url, attempt)
        .await
        .map_err(|stop| match stop {
            Stop::Fatal(e) => e,
            Stop::GaveUp {
                attempts,
                why,
                detail,
            } => FetchError::Transport {
                url: url.to_string(),
                attempts,
                why,
                detail: Detail(detail),
            },
            Stop::Unreachable(gone) => FetchError::Unreachable(gone),
            Stop::TooLate { seconds } => FetchError::RetryTooLate {
                url: url.to_string(),
                seconds,
            },
        })
}

/// The parts of the cache this module writes (docs/design.md#store).
#[derive(Debug, Clone)]
pub struct CacheDirs {
    root: PathBuf,
}

impl CacheDirs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        CacheDirs { root: root.into() }
    }

    /// The cache named by `SKILLPM_CACHE_DIR` or the platform default.
    pub fn from_env() -> Result<Self, NoCacheDir> {
        crate::cache::cache_root().map(CacheDirs::new)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn downloads(&self) -> PathBuf {
        self.root.join(layout::DOWNLOADS)
    }

    pub fn index(&self) -> PathBuf {
        self.root.join(layout::INDEX)
    }

    pub fn state(&self) -> PathBuf {
        self.root.join(layout::STATE)
    }

    pub fn tmp(&self) -> PathBuf {
        self.root.join(layout::TMP)
    }

    /// Where a verified artifact with this digest lives.
    pub fn download_path(&self, digest: &Digest) -> PathBuf {
        self.downloads().join(digest.file_name())
    }
}

/// How a fetched body was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyOrigin {
    /// Downloaded now.
    Network,
    /// The server answered 304; the cached copy is current.
    NotModified,
    /// Offline: the cached copy, however old.
    Cache,
    /// Read from a `file://` URL.
    LocalFile,
}

/// A small document (an index, a signature) held in memory.
#[derive(Debug, Clone)]
pub struct Body {
    /// The URL asked for.
    pub url: Url,
    /// The URL that answered, after redirects: relative references in the
    /// document resolve against it (RFC 3986 §5.1.3).
    pub final_url: Url,
    pub bytes: Vec<u8>,
    pub origin: BodyOrigin,
    etag: Option<String>,
    last_modified: Option<String>,
}

/// What to download.
#[derive(Debug, Clone)]
pub struct DownloadSpec {
    pub url: Url,
    /// The digest the bytes must have. `None` only for v0.1.0 files, which
    /// have none: their digest is computed and returned (trust on first use).
    pub expected: Option<Digest>,
    pub auth: Option<Auth>,
    /// Overrides [`FetchConfig::max_artifact_bytes`] for this download.
    pub max_bytes: Option<u64>,
    /// For a v0.1 file: which validators it is revalidated with.
    pub revalidation: Revalidation,
    /// For a v0.1 file: a copy of its bytes outside `downloads/` (the file in
    /// the store entry an earlier run made from it) that a 304 may confirm.
    /// Used only when it hashes to the digest the validators record.
    pub copy_at: Option<PathBuf>,
}

impl DownloadSpec {
    pub fn new(url: Url, expected: Option<Digest>) -> Self {
        DownloadSpec {
            url,
            expected,
            auth: None,
            max_bytes: None,
            revalidation: Revalidation::PerUrl,
            copy_at: None,
        }
    }

    pub fn with_auth(mut self, auth: Option<Auth>) -> Self {
        self.auth = auth;
        self
    }
}

/// How a v0.1 file (which has no digest) is revalidated.
#[derive(Debug, Clone, Default)]
pub enum Revalidation {
    /// With the validators recorded for its URL; a new record is saved per URL.
    #[default]
    PerUrl,
    /// With these, and nothing is saved here: the caller keeps one record
    /// per file list ([`Fetcher::file_list_validators`],
    /// [`Fetcher::remember_file_list`]) with what [`SmallDownload`] says.
    Given(Option<FileValidators>),
}

/// What a server said about a v0.1 file's bytes (its `ETag` /
/// `Last-Modified` and their digest), as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileValidators(pub(crate) validators::Validators);

/// A verified artifact in `<cache>/downloads/`.
#[derive(Debug, Clone)]
pub struct Downloaded {
    pub url: Url,
    pub path: PathBuf,
    pub digest: Digest,
    /// The server's Content-Type, when downloaded now over HTTP.
    pub content_type: Option<String>,
    /// True when the digest was already in the cache and nothing was fetched.
    pub reused: bool,
}

/// The bytes of one batch of downloads, shown on its bar's message with
/// their rate (the bar itself counts finished downloads).
pub(crate) struct Progress {
    bar: ProgressBar,
    bytes: std::sync::atomic::AtomicU64,
    started: std::time::Instant,
}

impl Progress {
    fn new(bar: ProgressBar) -> Self {
        Progress {
            bar,
            bytes: std::sync::atomic::AtomicU64::new(0),
            started: std::time::Instant::now(),
        }
    }

    pub(crate) fn add(&self, n: u64) {
        use std::sync::atomic::Ordering;
        let total = self.bytes.fetch_add(n, Ordering::Relaxed) + n;
        if self.bar.is_hidden() {
            return;
        }
        let secs = self.started.elapsed().as_secs_f64().max(0.001);
        self.bar.set_message(format!(
            "{} at {}/s",
            indicatif::HumanBytes(total),
            indicatif::HumanBytes((total as f64 / secs) as u64)
        ));
    }
}

/// The network side of a run. Create one and share it (clones share the
/// client, the runtime and the run's view of each origin). Its methods block
/// (they drive a private runtime), so call them from plain threads, never from
/// inside another async runtime.
#[derive(Clone)]
pub struct Fetcher {
    shared: Arc<Shared>,
}

struct Shared {
    config: FetchConfig,
    cache: CacheDirs,
    /// This run's temporary downloads, under one lock (`crate::fs::temp`).
    temps: crate::fs::temp::LazyGroup,
    offline: bool,
    /// The one HTTP client (`crate::Http`): pool, policy and the
    /// retry budget per origin.
    http: crate::Http,
    run: RunState,
    /// Whether this cache holds any v0.1 validators: unknown, no, yes (looked
    /// at once per run, and yes once this run writes one).
    validators_exist: std::sync::atomic::AtomicU8,
}

/// The largest body the run's memo keeps a copy of: an index of 50,000
/// skills is 16 MB, and a second copy held for the whole run was most of
/// the difference between reading it over HTTP and from a file
/// (docs/performance.md, the 50,000-skill index).
const KEEP_IN_MEMORY: u64 = 1024 * 1024;

/// The small documents this run has fetched (the retry budget per origin
/// is the client's, `crate::Budget`).
#[derive(Default)]
struct RunState {
    /// Small documents already fetched this run (`None`: not found).
    bodies: Mutex<HashMap<Url, Option<Body>>>,
}

impl RunState {
    fn body(&self, url: &Url) -> Option<Option<Body>> {
        self.bodies.lock().ok()?.get(url).cloned()
    }

    fn keep(&self, url: &Url, body: Option<Body>) {
        if let Ok(mut m) = self.bodies.lock() {
            m.insert(url.clone(), body);
        }
    }
}

impl Fetcher {
    pub fn new(config: FetchConfig, cache: CacheDirs, offline: bool) -> Result<Self, FetchError> {
        let http = crate::Http::new(config.net.clone());
        Ok(Fetcher {
            shared: Arc::new(Shared {
                config,
                temps: crate::fs::temp::LazyGroup::new(cache.tmp(), "download-"),
                cache,
                offline,
                http,
                run: RunState::default(),
                validators_exist: std::sync::atomic::AtomicU8::new(download::UNKNOWN),
            }),
        })
    }

    /// The network's own runtime (`crate::client::runtime`), started
    /// on the first transfer: a run served from disk and the cache (a
    /// no-op `install --frozen`, proofs from snapshots) starts no thread
    /// for it (docs/performance.md#the-no-op-install). One worker thread
    /// drives every transfer, so the work per byte (hashing, a write) stays
    /// off the caller's thread; concurrency comes from `config.net.jobs`
    /// transfers in flight; fsync runs on the blocking pool so a slow disk
    /// never stalls the other transfers.
    fn runtime(&self) -> Result<&'static tokio::runtime::Runtime, FetchError> {
        crate::client::runtime().map_err(|e| match e {
            NetError::Client(text) => FetchError::Client(text),
            other => FetchError::Client(other.to_string()),
        })
    }

    /// Tells `hook` before every retry (once per fetcher; later calls are
    /// ignored).
    pub fn on_retry(&self, hook: crate::OnRetry) {
        self.shared.http.on_retry(hook);
    }

    pub fn config(&self) -> &FetchConfig {
        &self.shared.config
    }

    pub fn cache(&self) -> &CacheDirs {
        &self.shared.cache
    }

    /// Fetches a small document (index, signature) of at most `max_bytes`,
    /// conditionally when a cached copy exists. Offline, the cached copy is
    /// returned or [`FetchError::Offline`]. Nothing is cached by this call:
    /// see [`Fetcher::remember`].
    pub fn get(&self, url: &Url, auth: Option<&Auth>, max_bytes: u64) -> Result<Body, FetchError> {
        match url.scheme() {
            "file" => index_cache::read_local(url, max_bytes),
            "http" | "https" => {
                if !self.shared.offline {
                    net_check(&self.shared.config, url)?;
                    match self.shared.run.body(url) {
                        Some(Some(body)) if body.bytes.len() as u64 <= max_bytes => {
                            return Ok(body);
                        }
                        Some(None) => {
                            return Err(FetchError::NotFound {
                                url: url.to_string(),
                            });
                        }
                        _ => {}
                    }
                }
                let cached = index_cache::load(&self.shared.cache.index(), url);
                if self.shared.offline {
                    return cached
                        .and_then(|c| c.into_body(url, BodyOrigin::Cache))
                        .ok_or_else(|| FetchError::Offline {
                            url: url.to_string(),
                        });
                }
                let got = self
                    .runtime()?
                    .block_on(self.shared.get_conditional(url, auth, max_bytes, cached));
                match &got {
                    // A large body is not copied into the run's memo: a
                    // second read in this run comes from the cache file
                    // once the caller kept it ([`Fetcher::remember`]).
                    Ok(body) if body.bytes.len() as u64 > KEEP_IN_MEMORY => {}
                    Ok(body) => self.shared.run.keep(url, Some(body.clone())),
                    Err(e) if e.is_not_found() => self.shared.run.keep(url, None),
                    Err(_) => {}
                }
                got
            }
            other => Err(FetchError::UnsupportedScheme {
                url: url.to_string(),
                scheme: other.to_owned(),
            }),
        }
    }

    /// Stores a body fetched over the network in `<cache>/index/`, so later
    /// runs can ask conditionally and `--offline` can use it. Call it once the
    /// body has been verified, so the cache never holds a refused document.
    pub fn remember(&self, body: &Body) -> Result<(), FetchError> {
        if body.origin != BodyOrigin::Network {
            return Ok(());
        }
        index_cache::store(&self.shared.cache.index(), body)
    }

    /// Downloads one artifact (see [`Fetcher::download_all`]).
    pub fn download(&self, spec: DownloadSpec) -> Result<Downloaded, FetchError> {
        let shared = self.shared.clone();
        self.runtime()?
            .block_on(async move { shared.download(spec, None).await })
    }

    /// Downloads every spec, at most `config.net.jobs` at a time, advancing `bar`
    /// by one per finished download. Results come back in the order given;
    /// one failure does not stop the others.
    pub fn download_all(
        &self,
        specs: Vec<DownloadSpec>,
        bar: &ProgressBar,
    ) -> Vec<Result<Downloaded, FetchError>> {
        in_order(specs.len(), |done| self.download_each(specs, bar, done))
    }

    /// [`Fetcher::download_all`], handing each result to `done` (with its
    /// index in `specs`) as soon as it is there, on this thread: the caller
    /// can start on it while the other transfers go on.
    pub fn download_each(
        &self,
        specs: Vec<DownloadSpec>,
        bar: &ProgressBar,
        mut done: impl FnMut(usize, Result<Downloaded, FetchError>),
    ) {
        let jobs = self.shared.config.net.jobs;
        self.run_all(specs, bar, jobs, None, |i, got| {
            done(i, got.and_then(download::Got::into_downloaded));
        });
    }

    /// [`Fetcher::download_each`] for small files (v0.1 file lists): each
    /// body is kept in memory while the batch's budget allows (and then
    /// spilled to `downloads/`), so the caller writes it once, where it
    /// belongs, and each result is handed to `done` as soon as it is there.
    /// `config.net.jobs` are in flight: more did not help (docs/performance.md#what-the-measurements-decided).
    pub fn download_small_each(
        &self,
        specs: Vec<DownloadSpec>,
        bar: &ProgressBar,
        mut done: impl FnMut(usize, Result<SmallDownload, FetchError>),
    ) {
        let budget = memory::MemoryBudget::new(memory::BATCH_MEMORY);
        let jobs = self.shared.config.net.jobs;
        self.run_all(specs, bar, jobs, Some(budget), |i, got| {
            done(
                i,
                got.map(|g| SmallDownload {
                    digest: g.digest,
                    size: g.size,
                    held: g.held,
                    validators: g.validators.map(FileValidators),
                }),
            );
        });
    }

    /// The validators recorded for the files of one v0.1 file list (one
    /// record for the list, HMAC'd), in the order of `urls`.
    pub fn file_list_validators(&self, urls: &[&Url]) -> Vec<Option<FileValidators>> {
        if !self.shared.validators_known() {
            return urls.iter().map(|_| None).collect();
        }
        validators::load_list(&self.shared.cache, urls)
            .into_iter()
            .map(|v| v.map(FileValidators))
            .collect()
    }

    /// Records what the server said about the files of one v0.1 file list
    /// (best effort; call it once their bytes are stored where
    /// [`DownloadSpec::copy_at`] will name them next time).
    pub fn remember_file_list(&self, said: &[(&Url, Option<&FileValidators>)]) {
        let said: Vec<(&Url, Option<&validators::Validators>)> = said
            .iter()
            .map(|(url, v)| (*url, v.map(|v| &v.0)))
            .collect();
        validators::save_list(&self.shared.cache, &said);
        if said.iter().any(|(_, v)| v.is_some()) {
            self.shared.validators_recorded();
        }
    }

    /// Whether a v0.1 file may be revalidated in this cache (any validators
    /// were ever recorded): callers look for earlier copies only then.
    pub fn may_revalidate_files(&self) -> bool {
        self.shared.validators_known()
    }

    /// Runs every spec, at most `jobs` at a time, handing each result to
    /// `done` as it finishes (on this thread, while the transfers run on
    /// the network's worker).
    fn run_all(
        &self,
        specs: Vec<DownloadSpec>,
        bar: &ProgressBar,
        jobs: usize,
        memory: Option<memory::MemoryBudget>,
        mut done: impl FnMut(usize, Result<download::Got, FetchError>),
    ) {
        use futures_util::StreamExt;

        if specs.is_empty() {
            return;
        }
        let runtime = match self.runtime() {
            Ok(runtime) => runtime,
            Err(e) => {
                for i in 0..specs.len() {
                    done(i, Err(FetchError::Client(e.to_string())));
                }
                return;
            }
        };
        let jobs = jobs.max(1);
        let shared = self.shared.clone();
        let progress = Arc::new(Progress::new(bar.clone()));
        bar.enable_steady_tick(Duration::from_millis(120));
        runtime.block_on(async move {
            let mut finished = futures_util::stream::iter(specs.into_iter().enumerate())
                .map(|(i, spec)| {
                    let shared = shared.clone();
                    let progress = progress.clone();
                    let memory = memory.clone();
                    async move {
                        let task = tokio::spawn(async move {
                            shared
                                .fetch_one(spec, Some(progress), memory.as_ref())
                                .await
                        });
                        let result = task.await.unwrap_or_else(|e| {
                            Err(FetchError::Client(format!("a download task failed: {e}")))
                        });
                        (i, result)
                    }
                })
                .buffer_unordered(jobs);
            while let Some((i, result)) = finished.next().await {
                bar.inc(1);
                done(i, result);
            }
        })
    }
}

/// The results `run` hands over one by one, in the order of their indexes.
fn in_order<T>(
    count: usize,
    run: impl FnOnce(&mut dyn FnMut(usize, Result<T, FetchError>)),
) -> Vec<Result<T, FetchError>> {
    let mut results: Vec<Option<Result<T, FetchError>>> = (0..count).map(|_| None).collect();
    run(&mut |i, result| {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(result);
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(FetchError::Client("a download was lost".into()))))
        .collect()
}

/// The plain-http rule (`crate::check_plain_http`) for a request.
fn net_check(config: &FetchConfig, url: &Url) -> Result<(), FetchError> {
    crate::check_plain_http(url, config.allow_http).map_err(FetchError::PlainHttp)
}

impl Shared {
    /// Runs `work` (a request with its retries) within the overall deadline.
    async fn within_deadline<T>(
        &self,
        url: &Url,
        work: impl std::future::Future<Output = Result<T, FetchError>>,
    ) -> Result<T, FetchError> {
        match tokio::time::timeout(self.config.net.deadline, work).await {
            Ok(result) => result,
            Err(_) => {
                let origin = url.origin().ascii_serialization();
                self.http.budget().give_up(&origin, Why::Timeout, 1);
                Err(FetchError::Transport {
                    url: url.to_string(),
                    attempts: 1,
                    why: Why::Timeout,
                    detail: Detail(format!(
                        "the transfer took longer than SKILLPM_HTTP_DEADLINE ({:?})",
                        self.config.net.deadline
                    )),
                })
            }
        }
    }

    fn client(&self) -> Result<&crate::Http, FetchError> {
        Ok(&self.http)
    }
}
