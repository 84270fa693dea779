//! Artifacts: streamed to a temporary file while hashed, synced, checked,
//! then renamed into `<cache>/downloads/sha256-<hex>`.
//!
//! The temporary file lives in `<cache>/tmp/` (same file system as
//! `downloads/`, so the rename is atomic), owned through the run's one lock
//! file for its downloads from before it exists (`crate::fs::temp`, so another process's sweep never
//! removes it), and is removed on every failure path, so the cache holds a
//! complete, verified artifact or nothing.
//! Its bytes are not flushed (an fsync per artifact dominated cold installs
//! of many small skills); instead a download found in the cache is hashed
//! again before it is reused, so a file torn by a power loss is fetched
//! again, never unpacked. The store entries made from it are sealed once
//! per install (`Store::seal_pending`: stamped with the boot id, see
//! `store::markers`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use reqwest::header::HeaderMap;
use url::Url;

use super::http;
use super::memory::{Held, InMemory, MemoryBudget, Reservation};
use super::validators::{self, Validators};
use super::{
    DownloadSpec, Downloaded, FetchError, FetchFailure, Progress, Revalidation, Shared,
    with_retries,
};
use crate::digest::{Digest, HashingWriter};

/// What one successful transfer produced, before verification.
struct Transferred {
    digest: Digest,
    size: u64,
    content_type: Option<String>,
    /// The validators the server gave (v0.1 files are revalidated with them).
    etag: Option<String>,
    last_modified: Option<String>,
    /// The body, when it was kept in memory (else it is in the temporary file).
    memory: Option<InMemory>,
}

/// What a download produced: a verified artifact, in a file or in memory.
pub(crate) struct Got {
    pub url: Url,
    pub digest: Digest,
    pub size: u64,
    pub content_type: Option<String>,
    pub reused: bool,
    pub held: Held,
    /// What the server said about a v0.1 file's bytes, when the caller
    /// records it ([`Revalidation::Given`]).
    pub validators: Option<Validators>,
}

impl Got {
    /// As a [`Downloaded`] (in a file: downloads made without a memory budget are).
    pub(crate) fn into_downloaded(self) -> Result<Downloaded, FetchError> {
        let Held::File(path) = self.held else {
            return Err(FetchError::Client(
                "a download kept in memory was asked for as a file".into(),
            ));
        };
        Ok(Downloaded {
            url: self.url,
            path,
            digest: self.digest,
            content_type: self.content_type,
            reused: self.reused,
        })
    }
}

impl Shared {
    /// Downloads one artifact into `downloads/` (see [`Shared::fetch_one`]).
    pub(crate) async fn download(
        &self,
        spec: DownloadSpec,
        progress: Option<Arc<Progress>>,
    ) -> Result<Downloaded, FetchError> {
        self.fetch_one(spec, progress, None)
            .await?
            .into_downloaded()
    }

    /// Downloads one artifact. With `memory`, a body that fits the budget is
    /// kept in memory and never written here (the caller writes it once,
    /// where it belongs); anything else ends up in `downloads/`.
    pub(crate) async fn fetch_one(
        &self,
        spec: DownloadSpec,
        progress: Option<Arc<Progress>>,
        memory: Option<&MemoryBudget>,
    ) -> Result<Got, FetchError> {
        if let Some(reused) = spec
            .expected
            .and_then(|d| self.verified_download(&spec.url, &d))
        {
            return Ok(reused);
        }
        let max = spec.max_bytes.unwrap_or(self.config.max_artifact_bytes);
        let tmp_dir = self.cache.tmp();
        let reserved = self
            .temps
            .get()
            .map(|group| group.reserve())
            .map_err(FetchError::io(&tmp_dir))?;
        let temp = reserved.path().to_owned();
        // Whether a body of this download was ever spilled to `temp`.
        let spilled = AtomicBool::new(false);
        let transferred = match spec.url.scheme() {
            "file" => {
                let (url, temp) = (spec.url.clone(), temp.clone());
                tokio::task::spawn_blocking(move || copy_local(&url, &temp, max))
                    .await
                    .map_err(|e| FetchError::Client(format!("a copy task failed: {e}")))??
            }
            "http" | "https" if self.offline => {
                return Err(FetchError::Offline {
                    url: spec.url.to_string(),
                });
            }
            "http" | "https" => {
                let client = self.client()?;
                // A v0.1 file (no digest) fetched before is revalidated.
                let known = match (&spec.expected, &spec.revalidation) {
                    (Some(_), _) => None,
                    (None, Revalidation::PerUrl) => self.load_validators(&spec.url),
                    (None, Revalidation::Given(given)) => given.as_ref().map(|v| v.0.clone()),
                };
                let mut conditional = known.as_ref().map(Validators::headers).unwrap_or_default();
                loop {
                    let got = self
                        .within_deadline(
                            &spec.url,
                            with_retries(self, &spec.url, || {
                                let headers = &conditional;
                                transfer(
                                    client,
                                    self,
                                    &spec,
                                    &temp,
                                    max,
                                    progress.as_deref(),
                                    headers,
                                    memory.map(|budget| (budget, &spilled)),
                                )
                            }),
                        )
                        .await?;
                    if let Some(transferred) = got {
                        break transferred;
                    }
                    // 304: the bytes the validators describe, if they still hash right.
                    if let Some(mut reused) = known
                        .as_ref()
                        .and_then(|k| self.confirmed_bytes(&spec, &k.digest))
                    {
                        // Still what the server says.
                        reused.validators = known;
                        return Ok(reused);
                    }
                    if conditional.is_empty() {
                        // 304 to a request that carried no validators: a broken server.
                        return Err(FetchError::Status {
                            url: spec.url.to_string(),
                            status: 304,
                            hint: " to a request that was not conditional".into(),
                        });
                    }
                    // A 304 whose cached bytes are gone or altered: a miss.
                    conditional = HeaderMap::new();
                }
            }
            other => {
                return Err(FetchError::UnsupportedScheme {
                    scheme: other.to_owned(),
                    url: spec.url.to_string(),
                });
            }
        };
        if let Some(expected) = spec.expected
            && expected != transferred.digest
        {
            return Err(FetchError::DigestMismatch {
                url: spec.url.to_string(),
                expected,
                actual: transferred.digest,
            });
        }
        let held = match transferred.memory {
            Some(body) => {
                if !spilled.load(Ordering::Acquire) {
                    // Nothing was ever made under the reserved name: there is
                    // nothing to remove (one `lstat` per file saved).
                    reserved.keep();
                }
                Held::Memory(Arc::new(body))
            }
            None => {
                let path = self.cache.download_path(&transferred.digest);
                // The name can only ever point at complete data (the bytes
                // are re-hashed before reuse, see the module comment). The
                // folder is not synced: a rename lost in a crash just means
                // the artifact is downloaded again.
                crate::fs::rename_creating_parent(&temp, &path).map_err(FetchError::io(&path))?;
                reserved.keep();
                Held::File(path)
            }
        };
        let mut validators = None;
        if spec.expected.is_none() {
            let said = Validators {
                etag: transferred.etag,
                last_modified: transferred.last_modified,
                digest: transferred.digest,
            };
            match spec.revalidation {
                Revalidation::PerUrl => self.save_validators(&spec.url, &said),
                // The caller records them, once the bytes are stored.
                Revalidation::Given(_) => validators = Some(said),
            }
        }
        Ok(Got {
            url: spec.url,
            digest: transferred.digest,
            size: transferred.size,
            content_type: transferred.content_type,
            reused: false,
            held,
            validators,
        })
    }
}

impl Shared {
    /// The cached download with this digest, when its bytes still hash to it.
    fn verified_download(&self, url: &Url, digest: &Digest) -> Option<Got> {
        reused_file(url, self.cache.download_path(digest), digest)
    }

    /// The bytes a 304 confirmed: the cached download with this digest, else
    /// the copy the caller named ([`DownloadSpec::copy_at`]), when its bytes
    /// still hash to it.
    fn confirmed_bytes(&self, spec: &DownloadSpec, digest: &Digest) -> Option<Got> {
        self.verified_download(&spec.url, digest)
            .or_else(|| reused_file(&spec.url, spec.copy_at.clone()?, digest))
    }

    /// The validators recorded for `url`. Before the first record of this
    /// cache exists there is nothing to read: one look at the folder per
    /// run instead of one failed open per file.
    fn load_validators(&self, url: &Url) -> Option<Validators> {
        if !self.validators_known() {
            return None;
        }
        validators::load(&self.cache, url)
    }

    /// Whether any validators may be recorded in this cache.
    pub(crate) fn validators_known(&self) -> bool {
        let known = match self.validators_exist.load(Ordering::Acquire) {
            UNKNOWN => {
                let found = if validators::any_recorded(&self.cache) {
                    PRESENT
                } else {
                    ABSENT
                };
                // A record written meanwhile (PRESENT) wins.
                let _ = self.validators_exist.compare_exchange(
                    UNKNOWN,
                    found,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
                self.validators_exist.load(Ordering::Acquire)
            }
            known => known,
        };
        known != ABSENT
    }

    /// Records what the server said about a v0.1 file's bytes.
    fn save_validators(&self, url: &Url, said: &Validators) {
        if said.etag.is_some() || said.last_modified.is_some() {
            validators::save(&self.cache, url, said);
            self.validators_recorded();
        }
    }

    /// A record of validators was written in this run.
    pub(crate) fn validators_recorded(&self) {
        self.validators_exist.store(PRESENT, Ordering::Release);
    }
}

/// [`Shared::load_validators`]'s view of the validators folder.
pub(crate) const UNKNOWN: u8 = 0;
const ABSENT: u8 = 1;
const PRESENT: u8 = 2;

/// The regular file at `path` as a reused download of `url`, when its bytes
/// hash to `digest`.
fn reused_file(url: &Url, path: PathBuf, digest: &Digest) -> Option<Got> {
    let meta = std::fs::metadata(&path).ok()?;
    if !(meta.is_file() && Digest::of_file(&path).is_ok_and(|d| d == *digest)) {
        return None;
    }
    Some(Got {
        url: url.clone(),
        held: Held::File(path),
        digest: *digest,
        size: meta.len(),
        content_type: None,
        reused: true,
        validators: None,
    })
}

/// One HTTP attempt, the whole body included: any break mid-body makes the
/// attempt transient and the next one starts the body over.
#[allow(clippy::too_many_arguments)]
async fn transfer(
    client: &crate::Http,
    shared: &Shared,
    spec: &DownloadSpec,
    temp: &Path,
    max: u64,
    progress: Option<&Progress>,
    conditional: &HeaderMap,
    memory: Option<(&MemoryBudget, &AtomicBool)>,
) -> Result<Option<Transferred>, FetchFailure> {
    let auth = spec.auth.as_ref();
    let Some(http::Fresh {
        final_url,
        mut response,
        content_type,
        etag,
        last_modified,
    }) = http::send_revalidating(client, &shared.config, &spec.url, auth, conditional).await?
    else {
        return Ok(None);
    };
    let io_fatal = |source| FetchFailure::Fatal(FetchError::io(temp)(source));
    let declared = response.content_length().filter(|&n| n <= max);
    let mut sink = match memory {
        Some((budget, spilled)) => Sink::memory(budget, spilled, declared),
        None => Sink::File(HashingWriter::new(
            create_with_parent(temp).map_err(io_fatal)?,
        )),
    };
    http::stream_body(&mut response, &final_url, &shared.config, max, |chunk| {
        if let Some(p) = progress {
            p.add(chunk.len() as u64);
        }
        sink.write(chunk, temp).map_err(io_fatal)
    })
    .await?;
    let (digest, size, memory) = sink.finish();
    Ok(Some(Transferred {
        digest,
        size,
        content_type,
        etag,
        last_modified,
        memory,
    }))
}

/// Where a body goes while it arrives: memory, as long as the batch's
/// budget allows, else the temporary file.
enum Sink<'b> {
    Memory {
        writer: HashingWriter<Vec<u8>>,
        held: Reservation,
        budget: &'b MemoryBudget,
        /// Set once a body spills to the temporary file.
        spilled: &'b AtomicBool,
    },
    File(HashingWriter<File>),
}

impl<'b> Sink<'b> {
    /// An empty in-memory sink, sized for a declared length the budget allows.
    fn memory(budget: &'b MemoryBudget, spilled: &'b AtomicBool, declared: Option<u64>) -> Self {
        let mut held = budget.reservation();
        let capacity = match declared {
            Some(n) if budget.take(&mut held, n) => n as usize,
            _ => 0,
        };
        Sink::Memory {
            writer: HashingWriter::new(Vec::with_capacity(capacity)),
            held,
            budget,
            spilled,
        }
    }

    fn write(&mut self, chunk: &[u8], temp: &Path) -> io::Result<()> {
        if let Sink::Memory {
            writer,
            held,
            budget,
            spilled,
        } = self
        {
            let after = writer.written() + chunk.len() as u64;
            let more = after.saturating_sub(held.bytes());
            if more == 0 || budget.take(held, more) {
                return writer.write_all(chunk);
            }
            // Over the budget: what came so far moves to the temporary file.
            spilled.store(true, Ordering::Release);
            let file = HashingWriter::new(create_with_parent(temp)?);
            let Sink::Memory { writer, .. } = std::mem::replace(self, Sink::File(file)) else {
                return Err(io::Error::other("the download sink was lost"));
            };
            let (_, _, so_far) = writer.finish();
            self.write(&so_far, temp)?;
        }
        match self {
            Sink::File(file) => file.write_all(chunk),
            Sink::Memory { .. } => Err(io::Error::other("the download sink was lost")),
        }
    }

    /// The digest, the size and, when kept in memory, the body.
    fn finish(self) -> (Digest, u64, Option<InMemory>) {
        match self {
            Sink::Memory { writer, held, .. } => {
                let (digest, size, bytes) = writer.finish();
                (digest, size, Some(InMemory::new(bytes, held)))
            }
            Sink::File(file) => {
                let (digest, size, _file) = file.finish();
                (digest, size, None)
            }
        }
    }
}

/// The `file://` twin of [`transfer`]: same hashing, limit and sync.
fn copy_local(url: &Url, temp: &Path, max: u64) -> Result<Transferred, FetchError> {
    let (path, source) = super::index_cache::open_local(url)?;
    let mut writer = HashingWriter::new(create_with_parent(temp).map_err(FetchError::io(temp))?);
    io::copy(&mut source.take(max + 1), &mut writer).map_err(|source| FetchError::Local {
        path: path.clone(),
        source,
    })?;
    if writer.written() > max {
        return Err(FetchError::too_large(url, max));
    }
    let (digest, size, _file) = writer.finish();
    Ok(Transferred {
        digest,
        size,
        content_type: None,
        etag: None,
        last_modified: None,
        memory: None,
    })
}

/// Creates (or truncates) `path`, creating its folder only when missing, so
/// the common case costs one system call.
fn create_with_parent(path: &Path) -> io::Result<File> {
    match File::create(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            File::create(path)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_past_the_memory_budget_spills_to_the_temporary_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let temp = dir.path().join("sub/download-x.0");
        let budget = MemoryBudget::new(8);
        let spilled = AtomicBool::new(false);
        // Fits: kept in memory, nothing written.
        let mut small = Sink::memory(&budget, &spilled, Some(5));
        small.write(b"hello", &temp).unwrap();
        let (digest, size, memory) = small.finish();
        let kept = memory.expect("kept in memory");
        assert_eq!((kept.bytes(), size), (&b"hello"[..], 5));
        assert_eq!(digest, Digest::of_bytes(b"hello"));
        assert!(!temp.exists());
        assert!(!spilled.load(Ordering::Acquire));
        // 3 bytes left while `kept` lives: the next body spills mid-way.
        let mut big = Sink::memory(&budget, &spilled, None);
        big.write(b"abc", &temp).unwrap();
        big.write(b"defg", &temp).unwrap();
        big.write(b"hij", &temp).unwrap();
        let (digest, size, memory) = big.finish();
        assert!(memory.is_none());
        assert!(spilled.load(Ordering::Acquire));
        assert_eq!(size, 10);
        assert_eq!(digest, Digest::of_bytes(b"abcdefghij"));
        assert_eq!(std::fs::read(&temp).unwrap(), b"abcdefghij");
        // The spilled body gave its share back; the kept one still holds 5.
        drop(kept);
        let mut again = budget.reservation();
        assert!(budget.take(&mut again, 8));
    }
}
