//! Small documents (indexes and their signatures): conditional requests
//! against a cached copy, and `file://` reads that behave like HTTP.
//!
//! A cached body is one file, `<cache>/index/<sha256 of the URL>`, holding a
//! header line, a JSON line of validators and the raw bytes, written
//! atomically so body and validators can never disagree.

use std::io::Read;
use std::path::Path;

use reqwest::header::HeaderMap;
use serde::{Deserialize, Serialize};
use url::Url;

use super::http::{self, conditional_headers};
use super::{Auth, Body, BodyOrigin, FetchError, Shared, with_retries};
use crate::digest::Digest;

const MAGIC: &[u8] = b"skillpm-cached-body 1\n";

#[derive(Debug, Serialize, Deserialize)]
struct Meta {
    url: String,
    final_url: String,
    etag: Option<String>,
    last_modified: Option<String>,
}

/// A cached copy: its validators, read first, and the open file its body
/// is read from only when needed (a 304, or offline), so a large index is
/// not held in memory while a changed one downloads (docs/performance.md,
/// the 50,000-skill index). The file stays open: a body replaced meanwhile
/// by another process (a rename) is not mixed with these validators.
pub(crate) struct Cached {
    meta: Meta,
    file: std::io::BufReader<std::fs::File>,
}

impl Cached {
    /// The cached body, read now; `None` when it can no longer be read
    /// (then it is not a cached copy).
    pub(crate) fn into_body(self, url: &Url, origin: BodyOrigin) -> Option<Body> {
        let final_url = Url::parse(&self.meta.final_url).unwrap_or_else(|_| url.clone());
        let mut bytes = Vec::new();
        self.file
            .take(MAX_CACHED_BYTES + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        if bytes.len() as u64 > MAX_CACHED_BYTES {
            return None;
        }
        Some(Body {
            url: url.clone(),
            final_url,
            bytes,
            origin,
            etag: self.meta.etag,
            last_modified: self.meta.last_modified,
        })
    }
}

/// The most bytes of a cached index read back (indexes are 16 MiB by
/// default, `max_index_bytes`).
const MAX_CACHED_BYTES: u64 = 256 * 1024 * 1024;

/// The most bytes of a cached copy's header line (its validators).
const MAX_META_BYTES: u64 = 64 * 1024;

fn cache_file(dir: &Path, url: &Url) -> std::path::PathBuf {
    dir.join(Digest::of_bytes(url.as_str().as_bytes()).hex())
}

/// The cached copy of `url`, if there is a readable one for exactly that URL
/// (its validators read, its body not yet).
pub(crate) fn load(dir: &Path, url: &Url) -> Option<Cached> {
    use std::io::BufRead;
    let file = std::fs::File::open(cache_file(dir, url)).ok()?;
    let mut file = std::io::BufReader::new(file);
    let mut magic = vec![0; MAGIC.len()];
    file.read_exact(&mut magic).ok()?;
    if magic != MAGIC {
        return None;
    }
    // The cache is not trusted with memory either: a header line past the
    // limit is not a cached copy.
    let mut line = Vec::new();
    (&mut file)
        .take(MAX_META_BYTES)
        .read_until(b'\n', &mut line)
        .ok()?;
    let meta: Meta = serde_json::from_slice(line.strip_suffix(b"\n")?).ok()?;
    if meta.url != url.as_str() {
        return None;
    }
    Some(Cached { meta, file })
}

pub(crate) fn store(dir: &Path, body: &Body) -> Result<(), FetchError> {
    let io = FetchError::io(dir);
    std::fs::create_dir_all(dir).map_err(io)?;
    let meta = Meta {
        url: body.url.to_string(),
        final_url: body.final_url.to_string(),
        etag: body.etag.clone(),
        last_modified: body.last_modified.clone(),
    };
    let meta = serde_json::to_vec(&meta).map_err(|e| io(std::io::Error::other(e)))?;
    let path = cache_file(dir, &body.url);
    // Written in parts: a large index is not copied to put its header first
    // (docs/performance.md, the 50,000-skill index).
    let parts: [&[u8]; 4] = [MAGIC, &meta, b"\n", &body.bytes];
    crate::fs::write_atomic_parts(&path, &parts).map_err(|source| FetchError::Io { path, source })
}

/// Opens the file a `file://` URL names with the outcomes of HTTP: a
/// missing file or a folder is "not found". Shared by index reads and
/// artifact downloads.
pub(crate) fn open_local(url: &Url) -> Result<(std::path::PathBuf, std::fs::File), FetchError> {
    let path = url
        .to_file_path()
        .map_err(|()| FetchError::UnsupportedScheme {
            url: url.to_string(),
            scheme: "file (not a local path)".into(),
        })?;
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FetchError::NotFound {
                url: url.to_string(),
            });
        }
        Err(source) => return Err(FetchError::Local { path, source }),
    };
    let meta = file.metadata().map_err(|source| FetchError::Local {
        path: path.clone(),
        source,
    })?;
    if !meta.is_file() {
        return Err(FetchError::NotFound {
            url: url.to_string(),
        });
    }
    Ok((path, file))
}

/// Reads a `file://` URL with the same outcomes as HTTP: a missing file or a
/// folder is "not found", an oversized one is refused.
pub(crate) fn read_local(url: &Url, max_bytes: u64) -> Result<Body, FetchError> {
    let (path, file) = open_local(url)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| FetchError::Local { path, source })?;
    if bytes.len() as u64 > max_bytes {
        return Err(FetchError::too_large(url, max_bytes));
    }
    Ok(Body {
        url: url.clone(),
        final_url: url.clone(),
        bytes,
        origin: BodyOrigin::LocalFile,
        etag: None,
        last_modified: None,
    })
}

impl Shared {
    /// GET with validators from `cached`; a 304 returns the cached body.
    pub(crate) async fn get_conditional(
        &self,
        url: &Url,
        auth: Option<&Auth>,
        max_bytes: u64,
        cached: Option<Cached>,
    ) -> Result<Body, FetchError> {
        let client = self.client()?;
        let validators = match &cached {
            Some(c) => conditional_headers(c.meta.etag.as_deref(), c.meta.last_modified.as_deref()),
            None => HeaderMap::new(),
        };
        let fetched = self
            .within_deadline(
                url,
                with_retries(self, url, || async {
                    let Some(http::Fresh {
                        final_url,
                        mut response,
                        etag,
                        last_modified,
                        ..
                    }) = http::send_revalidating(client, &self.config, url, auth, &validators)
                        .await?
                    else {
                        return Ok(None);
                    };
                    // Capped: a declared length over the limit is refused, not allocated.
                    let capacity = response.content_length().unwrap_or(0).min(max_bytes);
                    let mut bytes = Vec::with_capacity(capacity as usize);
                    http::stream_body(
                        &mut response,
                        &final_url,
                        &self.config,
                        max_bytes,
                        |chunk| {
                            bytes.extend_from_slice(chunk);
                            Ok(())
                        },
                    )
                    .await?;
                    Ok(Some(Body {
                        url: url.clone(),
                        final_url,
                        bytes,
                        origin: BodyOrigin::Network,
                        etag,
                        last_modified,
                    }))
                }),
            )
            .await?;
        match (fetched, cached) {
            (Some(body), _) => Ok(body),
            (None, Some(cached)) => {
                cached
                    .into_body(url, BodyOrigin::NotModified)
                    .ok_or_else(|| FetchError::Status {
                        url: url.to_string(),
                        status: 304,
                        hint: " but the cached copy can no longer be read; run the command again"
                            .into(),
                    })
            }
            // 304 to a request that carried no validators: a broken server.
            (None, None) => Err(FetchError::Status {
                url: url.to_string(),
                status: 304,
                hint: " to a request that was not conditional".into(),
            }),
        }
    }
}
