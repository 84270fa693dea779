//! Validators of v0.1 files, which the index lists without a digest: the
//! `ETag` / `Last-Modified` a server gave with a file, and the digest of the
//! bytes it gave, per URL. On a warm cache the file is asked for with
//! `If-None-Match` / `If-Modified-Since`; a 304 means the bytes with that
//! digest are current: those in `downloads/sha256-<digest>` (a body that was
//! spilled there) or the copy in the whole store entry an earlier run made
//! from the file list (`DownloadSpec::copy_at`), used only if they still
//! hash to that digest (else the file is downloaded again).
//!
//! `<cache>/index/files/sha256-<digest of the URL>`: one line and its HMAC
//! with the user's record key (`crate::trust::RecordKey`); for a whole file
//! list (what installs use, [`load_list`] / [`save_list`]), one record under
//! the digest of its URLs, a line per file, one HMAC. The cache is content,
//! not authority (docs/threat-model.md): without the MAC a cache writer
//! could point a URL at any other verified bytes. A record is written only
//! when the server gave a validator.

use std::path::PathBuf;

use reqwest::header::{self, HeaderMap, HeaderValue};
use url::Url;

use super::CacheDirs;
use crate::digest::Digest;
use crate::trust::RecordKey;

const KIND: &str = "file-validators";

/// What a server said about a file's bytes last time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The digest of the bytes those validators describe.
    pub digest: Digest,
}

impl Validators {
    /// The conditional request headers (none when a value is not a valid header).
    pub(crate) fn headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(v) = self
            .etag
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
        {
            headers.insert(header::IF_NONE_MATCH, v);
        }
        if let Some(v) = self
            .last_modified
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
        {
            headers.insert(header::IF_MODIFIED_SINCE, v);
        }
        headers
    }

    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}",
            self.digest,
            self.etag.as_deref().unwrap_or(""),
            self.last_modified.as_deref().unwrap_or("")
        )
    }

    fn parse(line: &str) -> Option<Validators> {
        let mut parts = line.splitn(3, '\t');
        let digest = parts.next()?.parse().ok()?;
        let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        let etag = some(parts.next()?);
        let last_modified = some(parts.next()?);
        (etag.is_some() || last_modified.is_some()).then_some(Validators {
            etag,
            last_modified,
            digest,
        })
    }
}

fn record_path(cache: &CacheDirs, url: &Url) -> PathBuf {
    cache
        .index()
        .join("files")
        .join(Digest::of_bytes(url.as_str().as_bytes()).file_name())
}

/// Whether any record was ever written in this cache (its folder exists):
/// a cold cache need not look for one record per file.
pub(crate) fn any_recorded(cache: &CacheDirs) -> bool {
    cache.index().join("files").is_dir()
}

/// The validators recorded for `url`, when their MAC verifies.
pub(crate) fn load(cache: &CacheDirs, url: &Url) -> Option<Validators> {
    load_with(cache, url, RecordKey::user()?)
}

fn load_with(cache: &CacheDirs, url: &Url, key: &RecordKey) -> Option<Validators> {
    let text = std::fs::read_to_string(record_path(cache, url)).ok()?;
    let (line, rest) = text.split_once('\n')?;
    let tag = hex::decode(rest.strip_prefix("mac ")?.trim_end()).ok()?;
    if !key.verify(
        &[KIND.as_bytes(), url.as_str().as_bytes(), line.as_bytes()],
        &tag,
    ) {
        return None;
    }
    Validators::parse(line)
}

/// Remembers `validators` for `url` (best effort: not flushed; a record lost
/// or torn reads as absent and the file is downloaded whole next time).
pub(crate) fn save(cache: &CacheDirs, url: &Url, validators: &Validators) {
    if let Some(key) = RecordKey::user() {
        save_with(cache, url, validators, key);
    }
}

fn save_with(cache: &CacheDirs, url: &Url, validators: &Validators, key: &RecordKey) {
    if validators.etag.is_none() && validators.last_modified.is_none() {
        return;
    }
    if load_with(cache, url, key).as_ref() == Some(validators) {
        return;
    }
    let line = validators.line();
    if line.contains('\n') {
        return;
    }
    let tag = key.mac(&[KIND.as_bytes(), url.as_str().as_bytes(), line.as_bytes()]);
    let path = record_path(cache, url);
    let text = format!("{line}\nmac {}\n", hex::encode(tag));
    let written = crate::fs::write_replacing(&path, text.as_bytes());
    if written.is_err()
        && let Some(dir) = path.parent()
        && std::fs::create_dir_all(dir).is_ok()
    {
        let _ = crate::fs::write_replacing(&path, text.as_bytes());
    }
}

/// What a server said about the files of one v0.1 file list, as one record
/// (`index/files/sha256-<digest of the list's URLs>`, HMAC'd like the
/// per-URL ones): a cold install writes one small file per skill, not one
/// per file, and on the import's thread, never the network's.
const LIST_KIND: &str = "file-list-validators";

fn list_record_path(cache: &CacheDirs, urls: &[&Url]) -> PathBuf {
    let mut key = String::from("file-list\n");
    for url in urls {
        key.push_str(url.as_str());
        key.push('\n');
    }
    cache
        .index()
        .join("files")
        .join(Digest::of_bytes(key.as_bytes()).file_name())
}

/// The validators recorded for each of `urls` (one record for the list),
/// when the record's MAC verifies; `None` for a URL the record has none for.
pub(crate) fn load_list(cache: &CacheDirs, urls: &[&Url]) -> Vec<Option<Validators>> {
    RecordKey::user()
        .and_then(|key| load_list_with(cache, urls, key))
        .unwrap_or_else(|| urls.iter().map(|_| None).collect())
}

fn load_list_with(
    cache: &CacheDirs,
    urls: &[&Url],
    key: &RecordKey,
) -> Option<Vec<Option<Validators>>> {
    let text = std::fs::read_to_string(list_record_path(cache, urls)).ok()?;
    let (body, tag) = text.rsplit_once("mac ")?;
    let tag = hex::decode(tag.trim_end()).ok()?;
    if !key.verify(&[LIST_KIND.as_bytes(), body.as_bytes()], &tag) {
        return None;
    }
    let mut lines = body.lines();
    let mut out = Vec::with_capacity(urls.len());
    for url in urls {
        let (at, line) = lines.next()?.split_once('\t')?;
        if at != url.as_str() {
            return None;
        }
        out.push(Validators::parse(line));
    }
    Some(out)
}

/// Remembers what the server said about each file of a list (best effort,
/// not flushed, as [`save`]); nothing when it gave no validator at all, and
/// no write when the record already says the same.
pub(crate) fn save_list(cache: &CacheDirs, said: &[(&Url, Option<&Validators>)]) {
    if let Some(key) = RecordKey::user() {
        save_list_with(cache, said, key);
    }
}

fn save_list_with(cache: &CacheDirs, said: &[(&Url, Option<&Validators>)], key: &RecordKey) {
    let useful = |v: &&Validators| v.etag.is_some() || v.last_modified.is_some();
    if !said.iter().any(|(_, v)| v.filter(useful).is_some()) {
        return;
    }
    let urls: Vec<&Url> = said.iter().map(|(url, _)| *url).collect();
    let wanted: Vec<Option<&Validators>> = said.iter().map(|(_, v)| v.filter(useful)).collect();
    if let Some(known) = load_list_with(cache, &urls, key)
        && known.iter().map(Option::as_ref).eq(wanted.iter().copied())
    {
        return;
    }
    let mut body = String::new();
    for (url, v) in urls.iter().zip(&wanted) {
        let line = v.map(Validators::line).unwrap_or_default();
        if url.as_str().contains(['\t', '\n']) || line.contains('\n') {
            return;
        }
        body.push_str(url.as_str());
        body.push('\t');
        body.push_str(&line);
        body.push('\n');
    }
    let tag = key.mac(&[LIST_KIND.as_bytes(), body.as_bytes()]);
    let path = list_record_path(cache, &urls);
    let text = format!("{body}mac {}\n", hex::encode(tag));
    let written = crate::fs::write_replacing(&path, text.as_bytes());
    if written.is_err()
        && let Some(dir) = path.parent()
        && std::fs::create_dir_all(dir).is_ok()
    {
        let _ = crate::fs::write_replacing(&path, text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validators_round_trip_and_forgeries_read_as_absent() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::load_or_create(&tmp.path().join("key")).unwrap();
        let cache = CacheDirs::new(tmp.path().join("cache"));
        let url = Url::parse("https://example.com/.well-known/skills/a/SKILL.md").unwrap();
        let v = Validators {
            etag: Some("\"abc\"".into()),
            last_modified: None,
            digest: Digest::of_bytes(b"a"),
        };
        assert_eq!(load_with(&cache, &url, &key), None);
        save_with(&cache, &url, &v, &key);
        assert_eq!(load_with(&cache, &url, &key), Some(v.clone()));
        assert_eq!(
            v.headers().get(header::IF_NONE_MATCH).unwrap(),
            &HeaderValue::from_static("\"abc\"")
        );
        // A cache writer without the key points the URL at other bytes.
        let path = record_path(&cache, &url);
        let text = std::fs::read_to_string(&path).unwrap();
        let evil = Digest::of_bytes(b"evil").to_string();
        std::fs::write(&path, text.replace(&v.digest.to_string(), &evil)).unwrap();
        assert_eq!(load_with(&cache, &url, &key), None);
        // No validator, no record.
        let other = Url::parse("https://example.com/b").unwrap();
        let bare = Validators {
            etag: None,
            last_modified: None,
            digest: Digest::of_bytes(b"b"),
        };
        save_with(&cache, &other, &bare, &key);
        assert!(!record_path(&cache, &other).exists());
    }

    #[test]
    fn one_record_per_file_list_round_trips_and_forgeries_read_as_absent() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::load_or_create(&tmp.path().join("key")).unwrap();
        let cache = CacheDirs::new(tmp.path().join("cache"));
        let a = Url::parse("https://example.com/.well-known/skills/a/SKILL.md").unwrap();
        let b = Url::parse("https://example.com/.well-known/skills/a/run.sh").unwrap();
        let said = Validators {
            etag: Some("\"abc\"".into()),
            last_modified: None,
            digest: Digest::of_bytes(b"a"),
        };
        let bare = Validators {
            etag: None,
            last_modified: None,
            digest: Digest::of_bytes(b"b"),
        };
        assert_eq!(load_list_with(&cache, &[&a, &b], &key), None);
        // No validator anywhere: no record.
        save_list_with(&cache, &[(&a, Some(&bare)), (&b, None)], &key);
        assert!(!cache.index().join("files").exists());
        save_list_with(&cache, &[(&a, Some(&said)), (&b, Some(&bare))], &key);
        assert_eq!(
            load_list_with(&cache, &[&a, &b], &key),
            Some(vec![Some(said.clone()), None])
        );
        assert_eq!(
            std::fs::read_dir(cache.index().join("files"))
                .unwrap()
                .count(),
            1,
            "one record for the list"
        );
        // Another list (other URLs, or another order) has its own record.
        assert_eq!(load_list_with(&cache, &[&b, &a], &key), None);
        // A cache writer without the key points a URL at other bytes.
        let path = list_record_path(&cache, &[&a, &b]);
        let text = std::fs::read_to_string(&path).unwrap();
        let evil = Digest::of_bytes(b"evil").to_string();
        std::fs::write(&path, text.replace(&said.digest.to_string(), &evil)).unwrap();
        assert_eq!(load_list_with(&cache, &[&a, &b], &key), None);
    }
}
