//! The one loopback GitHub for the git tests (library and CLI): the commits
//! API on one origin, `tar.gz` archives on a second, and a third origin the
//! archive host redirects to. Every request is logged with its origin, path
//! and `Authorization` header, so a test can prove where a token went.
//!
//! Repositories: every `owner/repo` exists with the given refs except a repo
//! named `nope`. Archives of `redirected/…` always answer with a redirect to
//! the third origin (as `acme/…`); [`FakeGitHub::redirect_all`] makes the
//! archive host redirect every download there.
//!
//! Releases ([`FakeGitHub::release`]): `GET /repos/{owner}/{repo}/releases/tags/{tag}`
//! lists a tag's assets, and an asset's API address answers
//! `Accept: application/octet-stream` with a redirect to the third origin,
//! which serves the bytes (as GitHub's storage host does).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::{Server, serve};

/// One request a loopback host saw.
#[derive(Debug, Clone)]
pub struct Hit {
    pub origin: &'static str,
    pub path: String,
    pub auth: Option<String>,
}

#[derive(Clone)]
struct Host {
    origin: &'static str,
    log: Arc<Mutex<Vec<Hit>>>,
    refs: Arc<HashMap<String, String>>,
    archives: Arc<HashMap<String, Vec<u8>>>,
    elsewhere: Arc<OnceLock<String>>,
    redirect_all: Arc<AtomicBool>,
    /// A real work tree the compare API answers from (`git merge-base`).
    history: Arc<OnceLock<std::path::PathBuf>>,
    /// Release assets: (tag, name, bytes); an asset's id is its place.
    releases: Releases,
    api_base: Arc<OnceLock<String>>,
}

type Releases = Arc<Mutex<Vec<(String, String, Vec<u8>)>>>;

/// `GET /repos/{owner}/{repo}/releases/tags/{tag}`: the release's assets,
/// each with its API address; 404 for a tag without assets.
async fn release_by_tag(
    State(host): State<Host>,
    UrlPath((owner, repo, tag)): UrlPath<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    host.record(
        format!("/repos/{owner}/{repo}/releases/tags/{tag}"),
        &headers,
    );
    let api = host.api_base.get().cloned().unwrap_or_default();
    let releases = host.releases.lock().unwrap();
    let assets: Vec<serde_json::Value> = (releases.iter().enumerate())
        .filter(|(_, (t, _, _))| *t == tag)
        .map(|(id, (_, name, bytes))| {
            serde_json::json!({
                "id": id,
                "name": name,
                "size": bytes.len(),
                "url": format!("{api}/repos/{owner}/{repo}/releases/assets/{id}"),
                "browser_download_url": format!("https://github.com/{owner}/{repo}/releases/download/{tag}/{name}"),
            })
        })
        .collect();
    if assets.is_empty() {
        return (StatusCode::NOT_FOUND, "Not Found").into_response();
    }
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        serde_json::json!({"tag_name": tag, "assets": assets}).to_string(),
    )
        .into_response()
}

/// An asset's API address: with `Accept: application/octet-stream`, a
/// redirect to the storage host (the third origin).
async fn release_asset(
    State(host): State<Host>,
    UrlPath((owner, repo, id)): UrlPath<(String, String, usize)>,
    headers: HeaderMap,
) -> Response {
    host.record(
        format!("/repos/{owner}/{repo}/releases/assets/{id}"),
        &headers,
    );
    if headers.get("accept").and_then(|v| v.to_str().ok()) != Some("application/octet-stream") {
        return (StatusCode::BAD_REQUEST, "wrong Accept").into_response();
    }
    let elsewhere = host.elsewhere.get().cloned().unwrap_or_default();
    Response::builder()
        .status(StatusCode::FOUND)
        .header("location", format!("{elsewhere}/release-assets/{id}"))
        .body(axum::body::Body::empty())
        .unwrap()
}

/// The storage host's copy of an asset.
async fn stored_asset(
    State(host): State<Host>,
    UrlPath(id): UrlPath<usize>,
    headers: HeaderMap,
) -> Response {
    host.record(format!("/release-assets/{id}"), &headers);
    match host.releases.lock().unwrap().get(id) {
        Some((_, _, bytes)) => bytes.clone().into_response(),
        None => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}

impl Host {
    fn record(&self, path: String, headers: &HeaderMap) {
        let auth = headers
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_owned());
        self.log.lock().unwrap().push(Hit {
            origin: self.origin,
            path,
            auth,
        });
    }
}

async fn api_commit(
    State(host): State<Host>,
    UrlPath((owner, repo, reference)): UrlPath<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    host.record(
        format!("/repos/{owner}/{repo}/commits/{reference}"),
        &headers,
    );
    if headers.get("accept").and_then(|v| v.to_str().ok()) != Some("application/vnd.github.sha") {
        return (StatusCode::BAD_REQUEST, "wrong Accept").into_response();
    }
    match host.refs.get(&reference) {
        Some(sha) if repo != "nope" => sha.clone().into_response(),
        _ => (StatusCode::UNPROCESSABLE_ENTITY, "No commit found").into_response(),
    }
}

/// `GET /repos/{owner}/{repo}/compare/{base}...{head}`: GitHub's answer
/// (`identical`, `ahead`: head contains base; `diverged` otherwise), worked
/// out by real git in the history's work tree; 404 without one.
async fn compare(
    State(host): State<Host>,
    UrlPath((owner, repo, range)): UrlPath<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    host.record(format!("/repos/{owner}/{repo}/compare/{range}"), &headers);
    let (Some(work), Some((base, head))) = (host.history.get(), range.split_once("...")) else {
        return (StatusCode::NOT_FOUND, "Not Found").into_response();
    };
    let known = |c: &str| {
        std::process::Command::new("git")
            .args(["cat-file", "-e", &format!("{c}^{{commit}}")])
            .current_dir(work)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !known(base) || !known(head) {
        return (StatusCode::NOT_FOUND, "No common ancestor").into_response();
    }
    let contains = std::process::Command::new("git")
        .args(["merge-base", "--is-ancestor", base, head])
        .current_dir(work)
        .status()
        .is_ok_and(|s| s.success());
    let status = match (base == head, contains) {
        (true, _) => "identical",
        (false, true) => "ahead",
        (false, false) => "diverged",
    };
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        serde_json::json!({ "status": status }).to_string(),
    )
        .into_response()
}

async fn archive(
    State(host): State<Host>,
    UrlPath((owner, repo, sha)): UrlPath<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    host.record(format!("/{owner}/{repo}/tar.gz/{sha}"), &headers);
    let elsewhere = host.elsewhere.get().cloned().unwrap_or_default();
    let target = if owner == "redirected" {
        Some(format!("{elsewhere}/acme/{repo}/tar.gz/{sha}"))
    } else if host.origin == "archive" && host.redirect_all.load(Ordering::SeqCst) {
        Some(format!("{elsewhere}/{owner}/{repo}/tar.gz/{sha}"))
    } else {
        None
    };
    if let Some(location) = target {
        return Response::builder()
            .status(StatusCode::FOUND)
            .header("location", location)
            .body(axum::body::Body::empty())
            .unwrap();
    }
    match host.archives.get(&sha) {
        Some(bytes) => bytes.clone().into_response(),
        None => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}

pub struct FakeGitHub {
    pub api: Server,
    /// Faults and a request count in front of the API host.
    pub api_faults: crate::support::server::Flaky,
    pub archive: Server,
    pub elsewhere: Server,
    log: Arc<Mutex<Vec<Hit>>>,
    redirect_all: Arc<AtomicBool>,
    history: Arc<OnceLock<std::path::PathBuf>>,
    releases: Releases,
}

impl FakeGitHub {
    /// `refs`: reference → commit sha; `archives`: sha → `tar.gz` bytes.
    pub fn new(refs: HashMap<String, String>, archives: HashMap<String, Vec<u8>>) -> FakeGitHub {
        let log = Arc::new(Mutex::new(Vec::new()));
        let elsewhere = Arc::new(OnceLock::new());
        let redirect_all = Arc::new(AtomicBool::new(false));
        let history = Arc::new(OnceLock::new());
        let releases: Releases = Arc::default();
        let api_base = Arc::new(OnceLock::new());
        let host = |origin| Host {
            origin,
            log: log.clone(),
            refs: Arc::new(refs.clone()),
            archives: Arc::new(archives.clone()),
            elsewhere: elsewhere.clone(),
            redirect_all: redirect_all.clone(),
            history: history.clone(),
            releases: releases.clone(),
            api_base: api_base.clone(),
        };
        let archive_router = |origin| {
            axum::Router::new()
                .route("/{owner}/{repo}/tar.gz/{sha}", get(archive))
                .route("/release-assets/{id}", get(stored_asset))
                .with_state(host(origin))
        };
        let api_faults = crate::support::server::Flaky::default();
        let github = FakeGitHub {
            api: serve(
                api_faults.wrap(
                    axum::Router::new()
                        .route(
                            "/repos/{owner}/{repo}/commits/{*reference}",
                            get(api_commit),
                        )
                        .route("/repos/{owner}/{repo}/compare/{range}", get(compare))
                        .route(
                            "/repos/{owner}/{repo}/releases/tags/{tag}",
                            get(release_by_tag),
                        )
                        .route(
                            "/repos/{owner}/{repo}/releases/assets/{id}",
                            get(release_asset),
                        )
                        .with_state(host("api")),
                ),
            ),
            api_faults,
            archive: serve(archive_router("archive")),
            elsewhere: serve(archive_router("elsewhere")),
            log,
            redirect_all,
            history,
            releases,
        };
        let _ = elsewhere.set(github.elsewhere.base.clone());
        let _ = api_base.set(github.api.base.clone());
        github
    }

    /// Points a sandboxed `skillpm` at these hosts, with a token in `$GITHUB_TOKEN`.
    pub fn configure(&self, sb: &mut crate::support::cli::Sandbox) {
        sb.env("SKILLPM_GITHUB_API_URL", &self.api.base)
            .env("SKILLPM_GITHUB_ARCHIVE_URL", &self.archive.base)
            // Never used: the fast path does not fall back with custom hosts.
            .env("SKILLPM_GITHUB_GIT_URL", "http://127.0.0.1:9")
            .env("GITHUB_TOKEN", "s3cret");
    }

    /// Whether the archive host redirects every download to the third origin.
    /// Answers the compare API from the real history in `work`.
    pub fn answer_compare_from(&self, work: &std::path::Path) {
        let _ = self.history.set(work.to_owned());
    }

    pub fn redirect_all(&self, on: bool) {
        self.redirect_all.store(on, Ordering::SeqCst);
    }

    /// Uploads (or replaces) the asset `name` of the release of `tag`, as
    /// `gh release upload --clobber` does.
    pub fn release(&self, tag: &str, name: &str, bytes: Vec<u8>) {
        let mut releases = self.releases.lock().unwrap();
        match (releases.iter_mut()).find(|(t, n, _)| t == tag && n == name) {
            Some(asset) => asset.2 = bytes,
            None => releases.push((tag.to_owned(), name.to_owned(), bytes)),
        }
    }

    /// Deletes every release asset.
    pub fn delete_releases(&self) {
        self.releases.lock().unwrap().clear();
    }

    /// The requests seen since the last call.
    pub fn take_log(&self) -> Vec<Hit> {
        std::mem::take(&mut self.log.lock().unwrap())
    }
}
