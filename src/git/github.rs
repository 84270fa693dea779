//! The GitHub fast path: resolve a ref with one API call and download the
//! commit's tar.gz instead of cloning.
//!
//! - `GET {api}/repos/{owner}/{repo}/commits/{ref}` with
//!   `Accept: application/vnd.github.sha` answers the commit id as text.
//! - `GET {archive}/{owner}/{repo}/tar.gz/{sha}` is the tree at that commit,
//!   inside one wrapper folder (`<repo>-<sha>/`), with the commit id in the
//!   pax global header (`git archive` writes it there): a different id is an
//!   integrity failure.
//!
//! Base URLs come from `SKILLPM_GITHUB_API_URL` / `SKILLPM_GITHUB_ARCHIVE_URL`
//! (tests point them at loopback). The token (`$GITHUB_TOKEN`, or the
//! source's `token-env`) is sent only to those two origins: redirects are
//! followed by hand and lose the token when they leave them. The git
//! fallback never sees it (git credentials come from git's own helpers).
//!
//! Caveat, documented for users: an archive honours `.gitattributes`
//! `export-ignore`/`export-subst`, so a skill using them has a different tree
//! digest than the same commit cloned. Skills rarely do.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, Read};
use std::path::Path;
use std::rc::Rc;

use reqwest::header::ACCEPT;

use crate::net::{Answer, Http, SendError};

use super::GitError;
use super::names::check_segment;
use super::spec::is_full_sha;
use super::writer::{CheckoutLimits, CheckoutTree, Claim, SkipReason, SkippedEntry, join};
use crate::skill::printable;

pub const DEFAULT_API_URL: &str = "https://api.github.com";
pub const DEFAULT_ARCHIVE_URL: &str = "https://codeload.github.com";
pub const DEFAULT_GIT_URL: &str = "https://github.com";
pub const API_URL_ENV: &str = "SKILLPM_GITHUB_API_URL";
pub const ARCHIVE_URL_ENV: &str = "SKILLPM_GITHUB_ARCHIVE_URL";
pub const GIT_URL_ENV: &str = "SKILLPM_GITHUB_GIT_URL";
pub const DEFAULT_TOKEN_ENV: &str = "GITHUB_TOKEN";

/// How to reach GitHub for the fast path.
#[derive(Clone, PartialEq, Eq)]
pub struct GitHubOptions {
    /// Use the API and archives at all (false: always clone).
    pub fast_path: bool,
    pub api_url: String,
    pub archive_url: String,
    /// Where `<owner>/<repo>.git` is cloned from when the fast path is off
    /// or falls back.
    pub git_url: String,
    /// Clone when the fast path fails for a reason cloning may not share
    /// (unreachable, rate-limited, server error). On by default only with
    /// GitHub's own API and archive hosts: a mirror or test setup must not
    /// silently reach somewhere else.
    pub clone_fallback: bool,
    /// Name of the environment variable the token came from (for messages).
    pub token_env: String,
    /// The token, read from `token_env` when the options were made. Kept in
    /// memory only, sent only to the two origins above, never printed.
    pub token: Option<String>,
    /// `--allow-http`: plain http bases other than this machine.
    pub allow_http: bool,
}

impl std::fmt::Debug for GitHubOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitHubOptions")
            .field("fast_path", &self.fast_path)
            .field("api_url", &self.api_url)
            .field("archive_url", &self.archive_url)
            .field("git_url", &self.git_url)
            .field("clone_fallback", &self.clone_fallback)
            .field("token_env", &self.token_env)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl Default for GitHubOptions {
    /// GitHub's own bases, no token.
    fn default() -> Self {
        GitHubOptions {
            fast_path: true,
            api_url: DEFAULT_API_URL.to_owned(),
            archive_url: DEFAULT_ARCHIVE_URL.to_owned(),
            git_url: DEFAULT_GIT_URL.to_owned(),
            clone_fallback: true,
            token_env: DEFAULT_TOKEN_ENV.to_owned(),
            token: None,
            allow_http: false,
        }
    }
}

impl GitHubOptions {
    /// Base URLs from `SKILLPM_GITHUB_API_URL`, `SKILLPM_GITHUB_ARCHIVE_URL`
    /// and `SKILLPM_GITHUB_GIT_URL` when set, and the token from `token_env`
    /// (a source's `token-env`; `None`: `GITHUB_TOKEN`).
    pub fn from_env(token_env: Option<&str>) -> Self {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .map(|v| v.trim().trim_end_matches('/').to_owned())
                .filter(|v| !v.is_empty())
        };
        let token_env = token_env.unwrap_or(DEFAULT_TOKEN_ENV).to_owned();
        let api_url = var(API_URL_ENV).unwrap_or_else(|| DEFAULT_API_URL.to_owned());
        let archive_url = var(ARCHIVE_URL_ENV).unwrap_or_else(|| DEFAULT_ARCHIVE_URL.to_owned());
        GitHubOptions {
            fast_path: true,
            clone_fallback: api_url == DEFAULT_API_URL && archive_url == DEFAULT_ARCHIVE_URL,
            api_url,
            archive_url,
            git_url: var(GIT_URL_ENV).unwrap_or_else(|| DEFAULT_GIT_URL.to_owned()),
            token: var(&token_env),
            token_env,
            allow_http: false,
        }
    }

    /// The URL git clones `owner/name` from.
    pub fn clone_url(&self, owner: &str, name: &str) -> String {
        format!("{}/{owner}/{name}.git", self.git_url.trim_end_matches('/'))
    }
}

/// The token for GitHub's API or archive origin `base` (its default
/// `default`), with the variable it came from. `$GITHUB_TOKEN` (or the
/// source's bound `token-env`) goes to GitHub's own origin and to one on
/// this machine (a test's, a local mirror's). Any other origin named by
/// `SKILLPM_GITHUB_API_URL` / `SKILLPM_GITHUB_ARCHIVE_URL`, which a
/// project's `.env` or CI job can set as easily as the user, gets only a
/// token the user bound to it (`source add … --token-env`, or its
/// `SKILLPM_TOKEN_…` variable: `net::choose_token`), never the GitHub
/// token (docs/network.md).
fn token_for(
    options: &GitHubOptions,
    base: &url::Url,
    default: &str,
) -> Option<(String, crate::net::Auth)> {
    let github_own = url::Url::parse(default).is_ok_and(|d| d.origin() == base.origin());
    let (var, token) = if github_own || crate::net::is_loopback(base) {
        (options.token_env.clone(), options.token.clone()?)
    } else {
        let user = crate::net::UserTokens::load();
        let crate::net::TokenChoice::Bound { var } = crate::net::choose_token(base, None, &user)
        else {
            return None;
        };
        let token = std::env::var(&var).ok().filter(|t| !t.trim().is_empty())?;
        (var, token)
    };
    let auth = crate::net::Auth::bearer(base, &var, &token)?;
    Some((var, auth))
}

/// One GitHub repository and the HTTP client that talks to it (the one
/// client, `crate::net::Http`).
pub(crate) struct GitHub<'a> {
    owner: &'a str,
    name: &'a str,
    options: &'a GitHubOptions,
    http: Http,
    /// The token, bound to the API and archive origins only (one for
    /// each when they take different variables).
    auth: Vec<crate::net::Auth>,
}

impl<'a> GitHub<'a> {
    pub(crate) fn new(
        owner: &'a str,
        name: &'a str,
        options: &'a GitHubOptions,
    ) -> Result<Self, GitError> {
        let api = base_url(&options.api_url)?;
        let archive = base_url(&options.archive_url)?;
        let auth = [(&api, DEFAULT_API_URL), (&archive, DEFAULT_ARCHIVE_URL)]
            .into_iter()
            .filter_map(|(base, default)| token_for(options, base, default))
            .fold(Vec::<crate::net::Auth>::new(), |mut all, (var, auth)| {
                // One secret bound to both origins is one credential.
                match all.iter_mut().find(|a| a.env_var() == var) {
                    Some(same) => *same = same.clone().also_for(&archive),
                    None => all.push(auth),
                }
                all
            });
        Ok(GitHub {
            owner,
            name,
            options,
            http: Http::shared(),
            auth,
        })
    }

    fn url(&self, base: &str, segments: &[&str]) -> Result<url::Url, GitError> {
        let mut url = base_url(base)?;
        url.path_segments_mut()
            .map_err(|()| GitError::spec(base, "the GitHub base URL cannot take a path"))?
            .pop_if_empty()
            .extend(segments);
        Ok(url)
    }

    /// GETs `url` through the one client: redirects followed by hand under
    /// the network policy, so the token never leaves the trusted origins.
    fn get(&self, url: url::Url, accept: &str) -> Result<Answer, GitError> {
        let network = |e: SendError| match e {
            SendError::PlainHttp(e) => GitError::PlainHttp(e),
            SendError::Redirect(crate::net::RedirectRefused { url, reason, .. }) => {
                GitError::GitHub {
                    url,
                    status: 310,
                    message: reason,
                    transient: false,
                }
            }
            SendError::NoLocation { url, response } => GitError::GitHub {
                url: url.to_string(),
                status: response.status().as_u16(),
                message: "a redirect without a usable Location".into(),
                transient: false,
            },
            other => GitError::network(url.as_str(), &other),
        };
        let mut request = crate::net::Request::get(url.clone())
            .header(ACCEPT, accept)
            .and_then(|r| r.header(API_VERSION.clone(), "2022-11-28"))
            .map_err(network)?;
        request.auth = self.auth.iter().find(|a| a.applies_to(&url)).cloned();
        request.allow_http = self.options.allow_http;
        self.http.send_blocking(request, None).map_err(network)
    }

    fn failure(&self, response: Answer, what: &str) -> GitError {
        let status = response.status;
        let url = response.url.to_string();
        let limited = response
            .headers
            .get("x-ratelimit-remaining")
            .is_some_and(|v| v == "0");
        let var = &self.options.token_env;
        let hint = match status.as_u16() {
            401 => format!("the token in ${var} was refused"),
            403 | 429 if limited => {
                format!("the API rate limit is exhausted; set ${var} to a token to raise it")
            }
            403 => format!("access denied; a private repository needs a token in ${var}"),
            _ => format!("cannot get {what}"),
        };
        GitError::GitHub {
            url,
            status: status.as_u16(),
            message: hint,
            transient: limited || status.as_u16() == 429 || status.is_server_error(),
        }
    }

    /// The commit `reference` (None: the default branch) names now.
    pub(crate) fn resolve(&self, reference: Option<&str>) -> Result<String, GitError> {
        let shown = reference.unwrap_or("HEAD");
        let mut segments = vec!["repos", self.owner, self.name, "commits"];
        segments.extend(shown.split('/'));
        let url = self.url(&self.options.api_url, &segments)?;
        let mut response = self.get(url.clone(), "application/vnd.github.sha")?;
        match response.status.as_u16() {
            200 => {}
            404 | 422 => {
                return Err(GitError::UnknownRef {
                    url: format!("https://github.com/{}/{}", self.owner, self.name),
                    reference: shown.to_owned(),
                    hint: format!(
                        "check the name; a private repository also needs a token in ${}",
                        self.options.token_env
                    ),
                });
            }
            _ => return Err(self.failure(response, "the commit")),
        }
        let mut body = String::new();
        response
            .read_to_string(&mut body)
            .map_err(|e| GitError::network(url.as_str(), &e))?;
        let sha = body.trim().to_ascii_lowercase();
        if !is_full_sha(&sha) {
            return Err(GitError::GitHub {
                url: url.to_string(),
                status: 200,
                message: "the answer is not a commit id (is the base URL a GitHub API?)".into(),
                transient: false,
            });
        }
        if let Some(pinned) = reference.filter(|r| is_full_sha(r))
            && !pinned.eq_ignore_ascii_case(&sha)
        {
            return Err(GitError::CommitMismatch {
                url: url.to_string(),
                expected: pinned.to_ascii_lowercase(),
                found: sha,
            });
        }
        Ok(sha)
    }

    /// Whether `commit` is `tip` or one of its ancestors, by the compare API
    /// (`GET /repos/{owner}/{repo}/compare/{commit}...{tip}`: `ahead` or
    /// `identical` means `tip` contains it). A commit GitHub does not know
    /// is not contained.
    pub(crate) fn contains(&self, tip: &str, commit: &str) -> Result<bool, GitError> {
        let range = format!("{commit}...{tip}");
        let segments = ["repos", self.owner, self.name, "compare", range.as_str()];
        let url = self.url(&self.options.api_url, &segments)?;
        let response = self.get(url.clone(), "application/vnd.github+json")?;
        match response.status.as_u16() {
            200 => {}
            404 | 422 => return Ok(false),
            _ => return Err(self.failure(response, "the comparison of two commits")),
        }
        let body: serde_json::Value =
            serde_json::from_reader(response).map_err(|e| GitError::network(url.as_str(), &e))?;
        Ok(matches!(
            body.get("status").and_then(|s| s.as_str()),
            Some("ahead" | "identical")
        ))
    }

    /// The asset `asset` of the release of `tag`, read through the API
    /// (`GET /repos/{owner}/{repo}/releases/tags/{tag}`, then the asset's
    /// API `url` with `Accept: application/octet-stream`, which GitHub
    /// answers with a redirect to its storage: followed under the network
    /// policy, the token left behind). At most `max_bytes`.
    pub(crate) fn release_asset(
        &self,
        tag: &str,
        asset: &str,
        max_bytes: u64,
    ) -> Result<ReleaseAsset, GitError> {
        let segments = ["repos", self.owner, self.name, "releases", "tags", tag];
        let url = self.url(&self.options.api_url, &segments)?;
        let response = self.get(url.clone(), "application/vnd.github+json")?;
        match response.status.as_u16() {
            200 => {}
            404 => return Ok(ReleaseAsset::NoRelease),
            _ => return Err(self.failure(response, "the release")),
        }
        let release: Release = serde_json::from_reader(response.take(RELEASE_JSON_CAP))
            .map_err(|e| GitError::network(url.as_str(), &e))?;
        let Some(found) = release.assets.iter().find(|a| a.name == asset) else {
            let names = release.assets.into_iter().map(|a| a.name).collect();
            return Ok(ReleaseAsset::NoAsset { names });
        };
        let too_large = |url: &str| GitError::GitHub {
            url: url.to_owned(),
            status: 200,
            message: format!("the asset is larger than {max_bytes} bytes"),
            transient: false,
        };
        if found.size > max_bytes {
            return Err(too_large(&found.url));
        }
        let at = url::Url::parse(&found.url).map_err(|e| GitError::GitHub {
            url: url.to_string(),
            status: 200,
            message: format!("the asset's URL {:?} is not valid: {e}", found.url),
            transient: false,
        })?;
        let response = self.get(at.clone(), "application/octet-stream")?;
        if response.status.as_u16() != 200 {
            return Err(self.failure(response, "the release asset"));
        }
        let mut bytes = Vec::new();
        (response.take(max_bytes + 1))
            .read_to_end(&mut bytes)
            .map_err(|e| GitError::network(at.as_str(), &e))?;
        if bytes.len() as u64 > max_bytes {
            return Err(too_large(at.as_str()));
        }
        Ok(ReleaseAsset::Found {
            url: release_download_url(self.owner, self.name, tag, asset),
            bytes,
        })
    }

    /// Downloads the archive of `commit` and writes its `subpath` folder
    /// into `dest` (an existing, empty folder).
    pub(crate) fn download(
        &self,
        commit: &str,
        subpath: Option<&str>,
        dest: &Path,
        limits: CheckoutLimits,
    ) -> Result<Vec<SkippedEntry>, GitError> {
        let url = self.url(
            &self.options.archive_url,
            &[self.owner, self.name, "tar.gz", commit],
        )?;
        let response = self.get(url.clone(), "application/gzip, application/x-gzip, */*")?;
        match response.status.as_u16() {
            200 => {}
            404 | 422 => {
                return Err(GitError::CommitNotFound {
                    url: format!("https://github.com/{}/{}", self.owner, self.name),
                    commit: commit.to_owned(),
                });
            }
            _ => return Err(self.failure(response, "the archive")),
        }
        extract(response, url.as_str(), commit, subpath, dest, limits)
    }
}

/// What a release holds of one asset name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseAsset {
    /// Its bytes, and the address people download it from
    /// (`https://github.com/OWNER/REPO/releases/download/TAG/NAME`).
    Found { url: String, bytes: Vec<u8> },
    /// The repository has no release for that tag.
    NoRelease,
    /// The release has no asset of that name; `names` are the ones it has.
    NoAsset { names: Vec<String> },
}

/// `https://github.com/OWNER/REPO/releases/download/TAG/NAME`, the address
/// GitHub serves a release asset at (what the lock records).
pub fn release_download_url(owner: &str, repo: &str, tag: &str, asset: &str) -> String {
    format!(
        "{}/{owner}/{repo}/releases/download/{tag}/{asset}",
        super::spec::GITHUB_WEB
    )
}

/// The most bytes of a release's JSON read (its notes and asset list).
const RELEASE_JSON_CAP: u64 = 4 * 1024 * 1024;

/// The part of the API's release object read here.
#[derive(serde::Deserialize)]
struct Release {
    #[serde(default)]
    assets: Vec<Asset>,
}

#[derive(serde::Deserialize)]
struct Asset {
    name: String,
    /// The API address of the asset (`…/releases/assets/ID`).
    url: String,
    #[serde(default)]
    size: u64,
}

/// The API version header GitHub documents.
static API_VERSION: reqwest::header::HeaderName =
    reqwest::header::HeaderName::from_static("x-github-api-version");

fn base_url(base: &str) -> Result<url::Url, GitError> {
    url::Url::parse(base)
        .map_err(|e| GitError::spec(base, format!("the GitHub base URL is not valid: {e}")))
}

/// Flags set by the readers under the tar parser, so an I/O error can be
/// told apart: the network failed, the size cap hit, or the bytes are bad.
#[derive(Default)]
struct ReadState {
    network_failed: Cell<bool>,
    cap_hit: Cell<bool>,
}

struct Watched<R> {
    inner: R,
    state: Rc<ReadState>,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).inspect_err(|_| {
            self.state.network_failed.set(true);
        })
    }
}

/// Stops reading decompressed bytes past `remaining`.
struct Capped<R> {
    inner: R,
    remaining: u64,
    state: Rc<ReadState>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.remaining {
            self.state.cap_hit.set(true);
            return Err(io::Error::other("decompressed size limit reached"));
        }
        self.remaining -= n as u64;
        Ok(n)
    }
}

/// Writes the archive's `subpath` (below its one wrapper folder) into `dest`.
pub(crate) fn extract(
    body: impl Read,
    url: &str,
    commit: &str,
    subpath: Option<&str>,
    dest: &Path,
    limits: CheckoutLimits,
) -> Result<Vec<SkippedEntry>, GitError> {
    let state = Rc::new(ReadState::default());
    let compressed = Watched {
        inner: body,
        state: state.clone(),
    };
    let decompressed = Capped {
        inner: flate2::read::GzDecoder::new(compressed),
        remaining: limits.max_total_bytes,
        state: state.clone(),
    };
    let read_error = |e: io::Error| read_failure(&state, url, &limits, e);

    let prefix: Vec<&str> = subpath.map(|s| s.split('/').collect()).unwrap_or_default();
    let mut writer = CheckoutTree::new(dest, url, limits);
    let mut wrapper: Option<Vec<u8>> = None;
    let mut found_subpath = prefix.is_empty();
    // Folders skipped for their names: everything below them goes unrecorded.
    let mut skipped_dirs: HashSet<String> = HashSet::new();

    let mut archive = tar::Archive::new(decompressed);
    let entries = archive.entries().map_err(read_error)?;
    for entry in entries {
        let mut entry = entry.map_err(read_error)?;
        let kind = entry.header().entry_type();
        if kind.is_pax_global_extensions() {
            check_commit_comment(&mut entry, url, commit, read_error)?;
            continue;
        }
        let raw_path = entry.path_bytes().into_owned();
        let rest = below_wrapper(&raw_path, &mut wrapper, url)?;
        let Some(inside) = below_prefix(&rest, &prefix) else {
            continue;
        };
        if inside.is_empty() {
            // The subpath itself (or the wrapper folder).
            if !prefix.is_empty() {
                if !kind.is_dir() {
                    return Err(GitError::Refused {
                        url: url.to_owned(),
                        path: subpath.unwrap_or_default().to_owned(),
                        reason: "it is not a folder (a link or a file)".into(),
                    });
                }
                found_subpath = true;
            }
            continue;
        }
        found_subpath = true;
        place_entry(
            &mut writer,
            &mut entry,
            inside,
            &mut skipped_dirs,
            read_error,
        )?;
    }
    check_held(wrapper.is_some(), found_subpath, url, commit, subpath)?;
    Ok(writer.finish())
}

/// After the last entry: the archive held a wrapper folder (it is not
/// empty) and the subpath asked for (a typo must not install nothing).
fn check_held(
    had_wrapper: bool,
    found_subpath: bool,
    url: &str,
    commit: &str,
    subpath: Option<&str>,
) -> Result<(), GitError> {
    if !had_wrapper {
        return Err(GitError::BadArchive {
            url: url.to_owned(),
            message: "the archive is empty".into(),
        });
    }
    if !found_subpath {
        return Err(GitError::SubpathNotFound {
            url: url.to_owned(),
            commit: commit.to_owned(),
            subpath: subpath.unwrap_or_default().to_owned(),
        });
    }
    Ok(())
}

/// Writes (or records as skipped) one entry at `inside`, the segments
/// below the subpath; a folder skipped for its name hides all below it.
fn place_entry<R: Read>(
    writer: &mut CheckoutTree<'_>,
    entry: &mut tar::Entry<'_, R>,
    inside: &[&[u8]],
    skipped_dirs: &mut HashSet<String>,
    read_error: impl FnOnce(io::Error) -> GitError,
) -> Result<(), GitError> {
    let is_dir = entry.header().entry_type().is_dir();
    if skipped_for_its_name(writer, inside, is_dir, skipped_dirs) {
        return Ok(());
    }
    let (parents, name) = inside.split_at(inside.len() - 1);
    let Some(parent) = claim_parents(writer, parents, skipped_dirs)? else {
        return Ok(());
    };
    let shown = join(&parent, &String::from_utf8_lossy(name[0]));
    if is_dir && writer.is_claimed(&shown) {
        return Ok(());
    }
    match writer.claim(&parent, name[0]) {
        Claim::Write(path) => write_entry(writer, entry, path, read_error)?,
        Claim::Skipped if is_dir => {
            skipped_dirs.insert(shown);
        }
        Claim::Skipped => {}
    }
    Ok(())
}

/// The segments of `rest` below the subpath `prefix`; `None` for an entry
/// elsewhere in the archive (only what lies below the subpath is kept).
fn below_prefix<'r, 'p>(rest: &'r [&'p [u8]], prefix: &[&str]) -> Option<&'r [&'p [u8]]> {
    let inside =
        rest.len() >= prefix.len() && rest.iter().zip(prefix).all(|(a, b)| *a == b.as_bytes());
    inside.then(|| &rest[prefix.len()..])
}

/// Why reading the archive failed: the size cap was hit, the network went
/// away, or the bytes are not a valid `tar.gz`.
fn read_failure(state: &ReadState, url: &str, limits: &CheckoutLimits, e: io::Error) -> GitError {
    if state.cap_hit.get() {
        GitError::TooLarge {
            url: url.to_owned(),
            message: format!(
                "the archive unpacks to more than {} bytes",
                limits.max_total_bytes
            ),
        }
    } else if state.network_failed.get() {
        GitError::network(url, &e)
    } else {
        GitError::BadArchive {
            url: url.to_owned(),
            message: e.to_string(),
        }
    }
}

/// The segments of `raw_path` below the archive's one top-level folder,
/// refusing an archive with more than one.
fn below_wrapper<'p>(
    raw_path: &'p [u8],
    wrapper: &mut Option<Vec<u8>>,
    url: &str,
) -> Result<Vec<&'p [u8]>, GitError> {
    let trimmed = raw_path.strip_suffix(b"/").unwrap_or(raw_path);
    let mut segments = trimmed.split(|b| *b == b'/');
    let top = segments.next().unwrap_or_default();
    match wrapper {
        None => *wrapper = Some(top.to_vec()),
        Some(w) if w.as_slice() == top => {}
        Some(_) => {
            return Err(GitError::BadArchive {
                url: url.to_owned(),
                message: format!(
                    "more than one top-level folder (`{}`); a GitHub archive has exactly one",
                    printable(&String::from_utf8_lossy(raw_path))
                ),
            });
        }
    }
    Ok(segments.collect())
}

/// Whether the entry at `inside` is left out for a name: it lies below a
/// folder already skipped (whose record covers it), or a segment of its path
/// is unsafe (recorded once, for the whole path).
fn skipped_for_its_name(
    writer: &mut CheckoutTree<'_>,
    inside: &[&[u8]],
    is_dir: bool,
    skipped_dirs: &mut HashSet<String>,
) -> bool {
    let lossy: Vec<String> = inside
        .iter()
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect();
    if (1..lossy.len()).any(|i| skipped_dirs.contains(&lossy[..i].join("/"))) {
        return true;
    }
    let Some((i, rule)) = inside
        .iter()
        .enumerate()
        .find_map(|(i, s)| check_segment(s).err().map(|rule| (i, rule)))
    else {
        return false;
    };
    if i + 1 < inside.len() || is_dir {
        skipped_dirs.insert(lossy[..=i].join("/"));
    }
    writer.skip(printable(&lossy.join("/")), SkipReason::UnsafeName { rule });
    true
}

/// Claims each parent folder (archives need not list them) and returns the
/// entry's parent path, or `None` when a parent was skipped.
fn claim_parents(
    writer: &mut CheckoutTree<'_>,
    parents: &[&[u8]],
    skipped_dirs: &mut HashSet<String>,
) -> Result<Option<String>, GitError> {
    let mut parent = String::new();
    for segment in parents {
        let shown = join(&parent, &String::from_utf8_lossy(segment));
        if writer.is_claimed(&shown) {
            parent = shown;
            continue;
        }
        match writer.claim(&parent, segment) {
            Claim::Write(path) => {
                writer.dir(&path)?;
                parent = path;
            }
            Claim::Skipped => {
                skipped_dirs.insert(shown);
                return Ok(None);
            }
        }
    }
    Ok(Some(parent))
}

/// Writes one claimed entry: a folder, a regular file (with its executable
/// bit), or a skip record for a link or any other special entry.
fn write_entry<R: Read>(
    writer: &mut CheckoutTree<'_>,
    entry: &mut tar::Entry<'_, R>,
    path: String,
    read_error: impl FnOnce(io::Error) -> GitError,
) -> Result<(), GitError> {
    let kind = entry.header().entry_type();
    if kind.is_dir() {
        writer.dir(&path)?;
    } else if kind.is_file() || kind == tar::EntryType::Continuous {
        let executable = entry
            .header()
            .mode()
            .map(|m| m & 0o111 != 0)
            .unwrap_or(false);
        writer.file(&path, executable, entry, read_error)?;
    } else if kind.is_symlink() {
        let target = entry
            .link_name_bytes()
            .map(|t| printable(&String::from_utf8_lossy(&t)))
            .unwrap_or_default();
        writer.skip(path, SkipReason::Symlink { target });
    } else {
        let kind = if kind.is_hard_link() {
            "hard link".to_owned()
        } else {
            format!("special entry (tar type {:?})", kind.as_byte() as char)
        };
        writer.skip(path, SkipReason::Special { kind });
    }
    Ok(())
}

/// `git archive` records the commit id as the pax global `comment`; when it
/// is there it must be the commit asked for.
fn check_commit_comment<R: Read>(
    entry: &mut tar::Entry<'_, R>,
    url: &str,
    commit: &str,
    read_error: impl Fn(io::Error) -> GitError,
) -> Result<(), GitError> {
    let Some(extensions) = entry.pax_extensions().map_err(&read_error)? else {
        return Ok(());
    };
    for extension in extensions {
        let extension = extension.map_err(&read_error)?;
        if extension.key_bytes() == b"comment" {
            let found = String::from_utf8_lossy(extension.value_bytes())
                .trim()
                .to_ascii_lowercase();
            if is_full_sha(&found) && !found.eq_ignore_ascii_case(commit) {
                return Err(GitError::CommitMismatch {
                    url: url.to_owned(),
                    expected: commit.to_ascii_lowercase(),
                    found,
                });
            }
        }
    }
    Ok(())
}
