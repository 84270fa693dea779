//! A real HTTP server on 127.0.0.1 (axum) serving a folder from disk, with
//! faults injected per path and every request logged.
//!
//! ```ignore
//! let server = TestServer::serve(dir.path());
//! server.fault("/.well-known/agent-skills/a.tar.gz", Fault::Status(500)); // once, then normal
//! server.fault_always("/x", Fault::Status(404));
//! // … run skillpm against server.url("/") …
//! assert_eq!(server.hits("/.well-known/agent-skills/a.tar.gz"), 2);
//! ```
//!
//! Normal answers carry an `ETag` (content hash) and `Last-Modified`, and a
//! matching `If-None-Match` gets a 304, like any static host.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use sha2::Digest as _;

/// What to do instead of (or to) the normal answer.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Answer with this status and an empty body.
    Status(u16),
    /// Answer with `status` and `Retry-After: <after>`.
    RetryAfter { status: u16, after: String },
    /// Claim the full Content-Length, send `keep` bytes, then drop the connection.
    Truncate { keep: usize },
    /// Send the whole body with this (wrong) Content-Length.
    WrongLength { claimed: u64 },
    /// Send `keep` bytes, go silent for `pause`, then send the rest.
    SlowBody { keep: usize, pause: Duration },
    /// Redirect (`status` 301/302/307/308) to `location`.
    Redirect { status: u16, location: String },
    /// Serve these bytes instead of the file (a tampered mirror).
    Replace(Vec<u8>),
    /// Wait this long before answering normally (to observe parallelism).
    Delay(Duration),
    /// Send the body one byte at a time, one every `every` (a dripping
    /// server: never silent for long, never done).
    Drip { every: Duration },
}

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Logged {
    pub method: String,
    /// Path and query, as sent.
    pub path: String,
    /// Header names lower-cased.
    pub headers: HashMap<String, String>,
    pub status: u16,
}

impl Logged {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
}

#[derive(Default)]
struct Faults {
    once: HashMap<String, VecDeque<Fault>>,
    always: HashMap<String, Fault>,
}

struct Shared {
    root: PathBuf,
    faults: Mutex<Faults>,
    log: Mutex<Vec<Logged>>,
    require_token: Mutex<Option<String>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

pub struct TestServer {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TestServer {
    /// Serves `root` on a fresh loopback port.
    pub fn serve(root: impl Into<PathBuf>) -> Self {
        let shared = Arc::new(Shared {
            root: root.into(),
            faults: Mutex::new(Faults::default()),
            log: Mutex::new(Vec::new()),
            require_token: Mutex::new(None),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("test-server")
            .enable_all()
            .build()
            .expect("server runtime");
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        std_listener.set_nonblocking(true).unwrap();
        let addr = std_listener.local_addr().unwrap();
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(std_listener).expect("listener");
            let _ = axum::serve(listener, app).await;
        });
        TestServer {
            addr,
            shared,
            runtime: Some(runtime),
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// The origin, without a trailing slash.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn root(&self) -> &Path {
        &self.shared.root
    }

    /// Applies `fault` to the next request for `path` only (queued in order).
    pub fn fault(&self, path: &str, fault: Fault) {
        let mut faults = self.shared.faults.lock().unwrap();
        faults
            .once
            .entry(path.to_owned())
            .or_default()
            .push_back(fault);
    }

    /// Applies `fault` to every request for `path` until cleared.
    pub fn fault_always(&self, path: &str, fault: Fault) {
        let mut faults = self.shared.faults.lock().unwrap();
        faults.always.insert(path.to_owned(), fault);
    }

    pub fn clear_faults(&self) {
        *self.shared.faults.lock().unwrap() = Faults::default();
    }

    /// Answer 401 unless `Authorization: Bearer <token>` is sent.
    pub fn require_token(&self, token: Option<&str>) {
        *self.shared.require_token.lock().unwrap() = token.map(str::to_owned);
    }

    pub fn requests(&self) -> Vec<Logged> {
        self.shared.log.lock().unwrap().clone()
    }

    /// Requests whose path (without query) equals `path`.
    pub fn requests_to(&self, path: &str) -> Vec<Logged> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.split('?').next() == Some(path))
            .collect()
    }

    pub fn hits(&self, path: &str) -> usize {
        self.requests_to(path).len()
    }

    pub fn clear_log(&self) {
        self.shared.log.lock().unwrap().clear();
        self.shared.max_in_flight.store(0, Ordering::SeqCst);
    }

    /// The most requests that were being handled at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let path = request.uri().path().to_owned();
    let path_and_query = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| path.clone());
    let headers: HashMap<String, String> = request
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();

    let fault = {
        let mut faults = shared.faults.lock().unwrap();
        let once = faults.once.get_mut(&path).and_then(VecDeque::pop_front);
        once.or_else(|| faults.always.get(&path).cloned())
    };
    if let Some(Fault::Delay(d)) = &fault {
        tokio::time::sleep(*d).await;
    }
    let response = respond(&shared, &path, request.headers(), fault);
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    shared.log.lock().unwrap().push(Logged {
        method: request.method().to_string(),
        path: path_and_query,
        headers,
        status: response.status().as_u16(),
    });
    response
}

fn status(code: u16) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::from_u16(code).unwrap();
    r
}

/// A status-only response carrying one header.
fn status_with(code: u16, name: header::HeaderName, value: &str) -> Response {
    let mut r = status(code);
    r.headers_mut()
        .insert(name, HeaderValue::from_str(value).unwrap());
    r
}

/// The answer before any content: 401 without the required token, or the
/// status, Retry-After or redirect a fault asks for.
fn refusal(shared: &Shared, headers: &HeaderMap, fault: Option<&Fault>) -> Option<Response> {
    if let Some(token) = shared.require_token.lock().unwrap().clone() {
        let sent = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if sent != Some(&format!("Bearer {token}")) {
            return Some(status(401));
        }
    }
    match fault? {
        Fault::Status(code) => Some(status(*code)),
        Fault::RetryAfter {
            status: code,
            after,
        } => Some(status_with(*code, header::RETRY_AFTER, after)),
        Fault::Redirect {
            status: code,
            location,
        } => Some(status_with(*code, header::LOCATION, location)),
        _ => None,
    }
}

/// The body for `content` and the Content-Length to claim: whole, or
/// broken the way a body fault asks (dropped after `keep` bytes, a wrong
/// length, or a pause mid-body).
fn body(content: Vec<u8>, fault: Option<Fault>) -> (Body, u64) {
    let length = content.len();
    match fault {
        Some(Fault::Truncate { keep }) => {
            let head = Bytes::from(content[..keep.min(length)].to_vec());
            let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
                Ok(head),
                Err(std::io::Error::other("connection dropped by fault")),
            ];
            (
                Body::from_stream(futures_util::stream::iter(chunks)),
                length as u64,
            )
        }
        Some(Fault::WrongLength { claimed }) => {
            let chunks: Vec<Result<Bytes, std::io::Error>> = vec![Ok(Bytes::from(content))];
            (
                Body::from_stream(futures_util::stream::iter(chunks)),
                claimed,
            )
        }
        Some(Fault::SlowBody { keep, pause }) => {
            let keep = keep.min(length);
            let head = Bytes::from(content[..keep].to_vec());
            let tail = Bytes::from(content[keep..].to_vec());
            let stream = futures_util::stream::unfold(0u8, move |step| {
                let (head, tail) = (head.clone(), tail.clone());
                async move {
                    match step {
                        0 => Some((Ok::<_, std::io::Error>(head), 1)),
                        1 => {
                            tokio::time::sleep(pause).await;
                            Some((Ok(tail), 2))
                        }
                        _ => None,
                    }
                }
            });
            (Body::from_stream(stream), length as u64)
        }
        Some(Fault::Drip { every }) => {
            let stream = futures_util::stream::unfold(0usize, move |i| {
                let byte = content.get(i).copied();
                async move {
                    let byte = byte?;
                    if i > 0 {
                        tokio::time::sleep(every).await;
                    }
                    Some((Ok::<_, std::io::Error>(Bytes::from(vec![byte])), i + 1))
                }
            });
            (Body::from_stream(stream), length as u64)
        }
        _ => (Body::from(content), length as u64),
    }
}

fn respond(shared: &Shared, path: &str, headers: &HeaderMap, fault: Option<Fault>) -> Response {
    if let Some(refused) = refusal(shared, headers, fault.as_ref()) {
        return refused;
    }
    let content = match &fault {
        Some(Fault::Replace(bytes)) => bytes.clone(),
        _ => match read_file(&shared.root, path) {
            Some(bytes) => bytes,
            None => return status(404),
        },
    };
    let etag = format!("\"{}\"", &hex::encode(sha2::Sha256::digest(&content))[..16]);
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return status_with(304, header::ETAG, &etag);
    }
    let (body, claimed) = body(content, fault);
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(claimed));
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    h.insert(header::ETAG, HeaderValue::from_str(&etag).unwrap());
    h.insert(
        header::LAST_MODIFIED,
        HeaderValue::from_str(&httpdate::fmt_http_date(
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        ))
        .unwrap(),
    );
    r
}

/// The file for a URL path; `None` for anything outside `root` or not a file.
fn read_file(root: &Path, path: &str) -> Option<Vec<u8>> {
    let mut full = root.to_owned();
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        let segment = skillpm::names::percent_decode(segment)?;
        if segment == ".." || segment == "." || segment.contains('/') || segment.contains('\\') {
            return None;
        }
        full.push(segment);
    }
    if !full.is_file() {
        return None;
    }
    std::fs::read(full).ok()
}

fn content_type(path: &str) -> &'static str {
    if path.ends_with(".json") {
        "application/json"
    } else if path.ends_with(".tar.gz") || path.ends_with(".tgz") {
        "application/gzip"
    } else if path.ends_with(".zip") {
        "application/zip"
    } else if path.ends_with(".md") {
        "text/markdown; charset=utf-8"
    } else {
        "application/octet-stream"
    }
}

/// A fault layer for any axum router (the GitHub, MCP and git servers of
/// the retry tests): answers the next requests it is told to fail with
/// `503 Service Unavailable`, and counts every request it sees.
#[derive(Clone, Default)]
pub struct Flaky {
    seen: Arc<AtomicUsize>,
    failing: Arc<AtomicUsize>,
}

impl Flaky {
    /// `router` behind this layer.
    pub fn wrap(&self, router: axum::Router) -> axum::Router {
        let flaky = self.clone();
        router.layer(axum::middleware::from_fn(
            move |request: Request, next: axum::middleware::Next| {
                let flaky = flaky.clone();
                async move {
                    flaky.seen.fetch_add(1, Ordering::SeqCst);
                    let fail = flaky
                        .failing
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok();
                    if fail {
                        return Response::builder()
                            .status(StatusCode::SERVICE_UNAVAILABLE)
                            .body(Body::empty())
                            .unwrap();
                    }
                    next.run(request).await
                }
            },
        ))
    }

    /// The next `n` requests are answered 503 (`usize::MAX`: all of them).
    pub fn fail_next(&self, n: usize) {
        self.failing.store(n, Ordering::SeqCst);
    }

    /// Requests seen since the last call.
    pub fn take_seen(&self) -> usize {
        self.seen.swap(0, Ordering::SeqCst)
    }
}
