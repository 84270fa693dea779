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
//! `store::seal`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

use reqwest::header::HeaderMap;
use url::Url;

use super::http;
use super::retry::{Failure, with_retries};
use super::validators::{self, Validators};
use super::{DownloadSpec, Downloaded, FetchError, Progress, Shared};
use crate::digest::{Digest, HashingWriter};

/// What one successful transfer produced, before verification.
struct Transferred {
    digest: Digest,
    size: u64,
    content_type: Option<String>,
    /// The validators the server gave (v0.1 files are revalidated with them).
    etag: Option<String>,
    last_modified: Option<String>,
}

impl Shared {
    pub(crate) async fn download(
        &self,
        spec: DownloadSpec,
        progress: Option<Arc<Progress>>,
    ) -> Result<Downloaded, FetchError> {
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
                let known = match spec.expected {
                    None => validators::load(&self.cache, &spec.url),
                    Some(_) => None,
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
                                )
                            }),
                        )
                        .await?;
                    if let Some(transferred) = got {
                        break transferred;
                    }
                    // 304: the bytes the validators describe, if they still hash right.
                    if let Some(reused) = known
                        .as_ref()
                        .and_then(|k| self.verified_download(&spec.url, &k.digest))
                    {
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
        let path = self.cache.download_path(&transferred.digest);
        // The bytes were synced before this rename, so the name can only ever
        // point at complete data. The folder itself is not synced: a rename
        // lost in a crash just means the artifact is downloaded again.
        rename_creating_dir(&temp, &path)?;
        reserved.keep();
        if spec.expected.is_none() {
            let said = Validators {
                etag: transferred.etag,
                last_modified: transferred.last_modified,
                digest: transferred.digest,
            };
            validators::save(&self.cache, &spec.url, &said);
        }
        Ok(Downloaded {
            url: spec.url,
            path,
            digest: transferred.digest,
            size: transferred.size,
            content_type: transferred.content_type,
            reused: false,
        })
    }
}

impl Shared {
    /// The cached download with this digest, when its bytes still hash to it.
    fn verified_download(&self, url: &Url, digest: &Digest) -> Option<Downloaded> {
        let path = self.cache.download_path(digest);
        let meta = std::fs::metadata(&path).ok()?;
        let whole = meta.is_file() && Digest::of_file(&path).is_ok_and(|d| d == *digest);
        whole.then(|| Downloaded {
            url: url.clone(),
            path,
            digest: *digest,
            size: meta.len(),
            content_type: None,
            reused: true,
        })
    }
}

/// One HTTP attempt, the whole body included: any break mid-body makes the
/// attempt transient and the next one starts the file over.
async fn transfer(
    client: &crate::net::Http,
    shared: &Shared,
    spec: &DownloadSpec,
    temp: &Path,
    max: u64,
    progress: Option<&Progress>,
    conditional: &HeaderMap,
) -> Result<Option<Transferred>, Failure> {
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
    let io_fatal = |source| Failure::Fatal(FetchError::io(temp)(source));
    let file = create_with_parent(temp).map_err(io_fatal)?;
    let mut writer = HashingWriter::new(file);
    http::stream_body(&mut response, &final_url, &shared.config, max, |chunk| {
        if let Some(p) = progress {
            p.add(chunk.len() as u64);
        }
        writer.write_all(chunk).map_err(io_fatal)
    })
    .await?;
    let (digest, size, file) = writer.finish();
    drop(file);
    Ok(Some(Transferred {
        digest,
        size,
        content_type,
        etag,
        last_modified,
    }))
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

/// Renames `from` to `to`, creating `to`'s folder only when missing.
fn rename_creating_dir(from: &Path, to: &Path) -> Result<(), FetchError> {
    let io = FetchError::io(to);
    match std::fs::rename(from, to) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && !to.parent().is_some_and(Path::exists) => {
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            std::fs::rename(from, to).map_err(io)
        }
        other => other.map_err(io),
    }
}
