//! Small documents (indexes and their signatures): conditional requests
//! against a cached copy, and `file://` reads that behave like HTTP.
//!
//! A cached body is one file, `<cache>/index/<sha256 of the URL>`, holding a
//! header line, a JSON line of validators and the raw bytes, written
//! atomically so body and validators can never disagree.
//!
//! The cache is content, not authority (docs/threat-model.md): the JSON line
//! also holds the body's digest and a MAC of the line by the user's record
//! key (`crate::trust::RecordKey`). A copy whose MAC fails is not a cached
//! copy (no validators are sent, nothing is served offline), and a body that
//! no longer hashes to its digest is asked for again, unconditionally: a
//! cache writer who edits a cached index, keeping its validators, gets no
//! 304 to stand for the edit.

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
    /// The body's digest.
    #[serde(default)]
    digest: Option<Digest>,
    /// The record key's MAC over the fields above ([`Meta::mac_parts`]).
    #[serde(default)]
    mac: Option<String>,
}

/// What the MAC of a cached body's line binds (no other record's MAC can
/// stand for one).
const MAC_KIND: &[u8] = b"cached-body";

impl Meta {
    /// The fields the MAC covers, each with a flag for its absence.
    fn mac_parts(&self) -> Vec<u8> {
        let mut text = Vec::new();
        let fields = [
            Some(self.url.as_str()),
            Some(self.final_url.as_str()),
            self.etag.as_deref(),
            self.last_modified.as_deref(),
        ];
        for field in fields {
            match field {
                Some(v) => {
                    text.extend_from_slice(&(v.len() as u64).to_be_bytes());
                    text.extend_from_slice(v.as_bytes());
                }
                None => text.extend_from_slice(&u64::MAX.to_be_bytes()),
            }
        }
        if let Some(d) = &self.digest {
            text.extend_from_slice(d.to_string().as_bytes());
        }
        text
    }

    /// Whether the user's record key made this line (and it names a digest).
    fn sealed(&self) -> bool {
        let (Some(key), Some(mac), Some(_)) = (
            crate::trust::RecordKey::user(),
            self.mac.as_deref(),
            self.digest,
        ) else {
            return false;
        };
        key.verify_hex(&[MAC_KIND, &self.mac_parts()], mac)
    }

    /// Whether `body` is what this line describes: the same bytes, from the
    /// same final URL, with the same validators.
    fn describes(&self, body: &Body, digest: &Digest) -> bool {
        self.digest.as_ref() == Some(digest)
            && self.final_url == body.final_url.as_str()
            && self.etag == body.etag
            && self.last_modified == body.last_modified
    }
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
    /// A body that no longer hashes to the digest its sealed line names is
    /// not one.
    pub(crate) fn into_body(self, url: &Url, origin: BodyOrigin) -> Option<Body> {
        let final_url = Url::parse(&self.meta.final_url).unwrap_or_else(|_| url.clone());
        let mut bytes = Vec::new();
        self.file
            .take(MAX_CACHED_BYTES + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        if bytes.len() as u64 > MAX_CACHED_BYTES
            || self.meta.digest != Some(Digest::of_bytes(&bytes))
        {
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
    if meta.url != url.as_str() || !meta.sealed() {
        return None;
    }
    Some(Cached { meta, file })
}

pub(crate) fn store(dir: &Path, body: &Body) -> Result<(), FetchError> {
    let io = FetchError::io(dir);
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut meta = Meta {
        url: body.url.to_string(),
        final_url: body.final_url.to_string(),
        etag: body.etag.clone(),
        last_modified: body.last_modified.clone(),
        digest: Some(Digest::of_bytes(&body.bytes)),
        mac: None,
    };
    // Without a record key the copy is kept unsealed: never believed.
    if let Some(key) = crate::trust::RecordKey::user() {
        meta.mac = Some(key.mac_hex(&[MAC_KIND, &meta.mac_parts()]));
    }
    let meta = serde_json::to_vec(&meta).map_err(|e| io(std::io::Error::other(e)))?;
    let path = cache_file(dir, &body.url);
    // Written in parts: a large index is not copied to put its header first
    // (docs/performance.md, the 50,000-skill index). Not flushed: a copy a
    // crash tore no longer hashes to its digest and is fetched again.
    let parts: [&[u8]; 4] = [MAGIC, &meta, b"\n", &body.bytes];
    crate::fs::write_replacing_parts(&path, &parts)
        .map_err(|source| FetchError::Io { path, source })
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
    /// GET with validators from `cached`; a 304 returns the cached body. A
    /// 200 with the very bytes and validators of the cached copy is that
    /// copy too (nothing to write again). A cached body that no longer
    /// hashes to its sealed digest is asked for again, unconditionally.
    pub(crate) async fn get_conditional(
        &self,
        url: &Url,
        auth: Option<&Auth>,
        max_bytes: u64,
        cached: Option<Cached>,
    ) -> Result<Body, FetchError> {
        let validators = match &cached {
            Some(c) => conditional_headers(c.meta.etag.as_deref(), c.meta.last_modified.as_deref()),
            None => HeaderMap::new(),
        };
        let fetched = self.ask(url, auth, max_bytes, &validators).await?;
        let not_conditional = || FetchError::Status {
            url: url.to_string(),
            status: 304,
            hint: " to a request that was not conditional".into(),
        };
        match (fetched, cached) {
            (Some(mut body), Some(cached)) => {
                if cached.meta.describes(&body, &Digest::of_bytes(&body.bytes)) {
                    body.origin = BodyOrigin::NotModified;
                }
                Ok(body)
            }
            (Some(body), None) => Ok(body),
            (None, Some(cached)) => match cached.into_body(url, BodyOrigin::NotModified) {
                Some(body) => Ok(body),
                None => self
                    .ask(url, auth, max_bytes, &HeaderMap::new())
                    .await?
                    .ok_or_else(not_conditional),
            },
            // 304 to a request that carried no validators: a broken server.
            (None, None) => Err(not_conditional()),
        }
    }

    /// One GET with `validators` (retries and deadline included): the body,
    /// or `None` for a 304.
    async fn ask(
        &self,
        url: &Url,
        auth: Option<&Auth>,
        max_bytes: u64,
        validators: &HeaderMap,
    ) -> Result<Option<Body>, FetchError> {
        let client = self.client()?;
        self.within_deadline(
            url,
            with_retries(self, url, || async {
                let Some(http::Fresh {
                    final_url,
                    mut response,
                    etag,
                    last_modified,
                    ..
                }) = http::send_revalidating(client, &self.config, url, auth, validators).await?
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
        .await
    }
}
