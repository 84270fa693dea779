//! The one HTTP client (docs/network.md#one-client). Every request skillpm
//! makes — registry indexes and artifacts, the OCI API, the GitHub API and
//! archives, MCP servers, git's smart HTTP — goes through [`Http::send`],
//! which applies the whole policy on every hop: the plain-http rule, the
//! redirect rule (followed by hand, never by reqwest), the credential only to
//! its own origin, and the idle timeout before the answer's head.
//!
//! The engine is async reqwest on one runtime owned by this module. Callers
//! that are plain code use the blocking face ([`Http::send_blocking`],
//! [`Answer`] reads as `std::io::Read`): the work runs as a task on that
//! runtime and the caller waits on a channel, never with `block_on`, so it
//! cannot panic inside someone else's runtime, and every caller shares one
//! connection pool.

use std::future::Future;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode};
use url::Url;

use super::body::BodyStream;
use super::{
    Auth, Budget, Failure, NetError, OnRetry, RetryNotice, Settings, Stop, USER_AGENT, Why,
    check_plain_http, redirect_allowed,
};

/// The runtime every transfer runs on: one worker thread (the work per byte,
/// hashing and a write, is far cheaper than the network; concurrency comes
/// from transfers in flight), started on first use and kept for the process.
pub fn runtime() -> Result<&'static tokio::runtime::Runtime, NetError> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("skillpm-net")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| NetError::Client(format!("cannot start the async runtime: {e}")))
}

/// Runs `work` on the network runtime and waits for it on this thread (a
/// channel, not `block_on`: no panic whatever runtime the caller is in).
/// Never call it from a task of the network runtime itself.
pub fn wait<T: Send + 'static>(
    work: impl Future<Output = T> + Send + 'static,
) -> Result<T, NetError> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    runtime()?.spawn(async move {
        let _ = tx.send(work.await);
    });
    rx.recv()
        .map_err(|_| NetError::Client("a network task stopped before it answered".into()))
}

/// The reqwest client for a connect timeout and for `https` or plain
/// `http` URLs: every [`Http`] with the same timeout shares it, and so its
/// connection pool.
///
/// The `https` client verifies with the platform's roots, which reading
/// costs ~10 ms (every file of `/etc/ssl/certs` on Linux): a run that only
/// speaks plain http to a local registry never pays it, because its client
/// has no roots at all (so it can verify nothing, and is never asked to).
///
/// `direct`: for a URL on this machine, which never goes through a proxy.
/// The plain-http rule lets `http://127.0.0.1` through because such a
/// request never leaves the machine; sent to `HTTP_PROXY` or `ALL_PROXY`
/// (which a project's `.env` can set), it would cross the network in the
/// clear, its token readable and its answer changeable on the way.
fn pooled_client(connect: Duration, tls: bool, direct: bool) -> Result<reqwest::Client, NetError> {
    type Table = Vec<((Duration, bool, bool), reqwest::Client)>;
    static CLIENTS: Mutex<Table> = Mutex::new(Vec::new());
    let mut clients = CLIENTS
        .lock()
        .map_err(|_| NetError::Client("the client table is poisoned".into()))?;
    let key = (connect, tls, direct);
    if let Some((_, client)) = clients.iter().find(|(k, _)| *k == key) {
        return Ok(client.clone());
    }
    // Proxies come from the environment (`HTTPS_PROXY`, `NO_PROXY`, …) as
    // reqwest reads them, except to this machine; rustls with the
    // platform's roots.
    let mut builder = reqwest::Client::builder()
        .user_agent(USER_AGENT)
        .connect_timeout(connect)
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        .tcp_nodelay(true)
        .pool_idle_timeout(Duration::from_secs(30));
    if !tls {
        builder = builder.tls_certs_only(std::iter::empty());
    }
    if direct {
        builder = builder.no_proxy();
    }
    let client = builder
        .build()
        .map_err(|e| NetError::Client(super::chain_text(&e)))?;
    clients.push((key, client.clone()));
    Ok(client)
}

/// The one HTTP client: settings, the shared connection pool, the retry
/// budget per origin and who hears of a retry. Clones share everything.
#[derive(Clone)]
pub struct Http {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    /// For `https` URLs, and for every other one, each through the
    /// environment's proxy or, for this machine, direct (see [`pooled_client`]).
    clients: [OnceLock<Result<reqwest::Client, String>>; 4],
    budget: Budget,
    on_retry: OnceLock<OnRetry>,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Http({:?})", self.inner.settings)
    }
}

impl Http {
    /// A client with its own retry budget (one per run).
    pub fn new(settings: Settings) -> Http {
        Http {
            inner: Arc::new(Inner {
                settings,
                clients: Default::default(),
                budget: Budget::default(),
                on_retry: OnceLock::new(),
            }),
        }
    }

    /// The process's client, with settings from the environment (defaults
    /// where a knob is unusable: the registry fetcher reports that). Git,
    /// GitHub and MCP sources use it.
    pub fn shared() -> Http {
        static SHARED: OnceLock<Http> = OnceLock::new();
        SHARED
            .get_or_init(|| Http::new(Settings::from_env().unwrap_or_default()))
            .clone()
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// The retry budget per origin (docs/network.md).
    pub fn budget(&self) -> &Budget {
        &self.inner.budget
    }

    /// Tells `hook` before every retry (once per client; later calls are
    /// ignored).
    pub fn on_retry(&self, hook: OnRetry) {
        let _ = self.inner.on_retry.set(hook);
    }

    pub(crate) fn notify(&self, notice: &RetryNotice) {
        if let Some(hook) = self.inner.on_retry.get() {
            hook(notice);
        }
    }

    /// The client for `url`: the one with the platform's roots for https,
    /// and one that never uses a proxy for this machine.
    fn client(&self, url: &Url) -> Result<&reqwest::Client, NetError> {
        let tls = url.scheme() == "https";
        let direct = super::is_loopback(url);
        let slot = &self.inner.clients[usize::from(tls) * 2 + usize::from(direct)];
        slot.get_or_init(|| {
            pooled_client(self.inner.settings.connect_timeout, tls, direct)
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| NetError::Client(e.clone()))
    }

    /// Sends `request` under the origin's retry budget ([`Http::retrying`]):
    /// a connection that fails or gives no answer within the idle timeout,
    /// and a 429 or 5xx answer, are tried again (after `Retry-After` when
    /// the server says how long); once the retries are spent, the last
    /// error or answer is given back and the origin is down for the run
    /// ([`SendError::Unreachable`] for every later request). The final
    /// answer is returned whatever its status. Every attempt is one
    /// [`Http::send_once`].
    pub async fn send(&self, request: &Request) -> Result<Sent, SendError> {
        /// One attempt's end that the loop may give back: an error, or a
        /// server's answer that asked for a retry.
        enum Once {
            Failed(SendError),
            Answered(Sent),
        }
        let got = self
            .retrying(&request.url, || async {
                let sent = self.send_once(request).await.map_err(|e| {
                    let transient = match &e {
                        SendError::NoAnswer { .. } => true,
                        SendError::Transport { source, .. } => {
                            !source.is_builder() && e.why() != Why::Tls
                        }
                        _ => false,
                    };
                    if !transient {
                        return Failure::Fatal(Once::Failed(e));
                    }
                    Failure::Transient {
                        why: e.why(),
                        detail: e.to_string(),
                        retry_after: None,
                        last: Some(Box::new(Once::Failed(e))),
                    }
                })?;
                match super::retry_status::<Once>(&sent.response) {
                    Some(Failure::Transient {
                        why,
                        detail,
                        retry_after,
                        ..
                    }) => Err(Failure::Transient {
                        why,
                        detail,
                        retry_after,
                        last: Some(Box::new(Once::Answered(sent))),
                    }),
                    _ => Ok(sent),
                }
            })
            .await;
        match got {
            Ok(sent) | Err(Stop::Fatal(Once::Answered(sent))) => Ok(sent),
            Err(Stop::Fatal(Once::Failed(e))) => Err(e),
            Err(Stop::Unreachable(gone)) => Err(SendError::Unreachable(gone)),
            // Every transient failure above says what to give back.
            Err(Stop::GaveUp { detail, .. }) => Err(SendError::Client(NetError::Client(detail))),
            Err(Stop::TooLate { seconds }) => Err(SendError::Client(NetError::Client(format!(
                "the server asked to retry after {seconds}s"
            )))),
        }
    }

    /// One attempt: sends `request` and returns the final answer whatever
    /// its status, after the redirects it may follow. On every hop: plain
    /// http only as [`check_plain_http`] allows, a redirect only as
    /// [`redirect_allowed`] allows, the credential only to its own origin,
    /// and the answer's head within the idle timeout (a server that drips
    /// its status line byte by byte is as dead as a silent one). Only a
    /// caller that runs its own attempts under [`Http::retrying`] (the
    /// registry fetcher: the body is inside its retry) calls it.
    pub async fn send_once(&self, request: &Request) -> Result<Sent, SendError> {
        let settings = &self.inner.settings;
        let mut current = request.url.clone();
        for _ in 0..=settings.max_redirects {
            check_plain_http(&current, request.allow_http).map_err(SendError::PlainHttp)?;
            let client = self.client(&current).map_err(SendError::Client)?;
            let mut builder = client
                .request(request.method.clone(), current.clone())
                .headers(request.headers.clone());
            if let Some(auth) = request.auth.as_ref().filter(|a| a.applies_to(&current)) {
                builder = builder.header(header::AUTHORIZATION, auth.header_value());
            }
            if let Some(body) = &request.body {
                builder = builder.body(body.clone());
            }
            let response = match tokio::time::timeout(settings.idle_timeout, builder.send()).await {
                Ok(sent) => sent.map_err(|source| SendError::Transport {
                    url: current.to_string(),
                    source,
                })?,
                Err(_) => {
                    return Err(SendError::NoAnswer {
                        url: current.to_string(),
                        after: settings.idle_timeout,
                    });
                }
            };
            let status = response.status();
            if !request.follow_redirects
                || !status.is_redirection()
                || status == StatusCode::NOT_MODIFIED
            {
                return Ok(Sent {
                    url: current,
                    response,
                });
            }
            let Some(location) = response
                .headers()
                .get(header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
            else {
                return Err(SendError::NoLocation {
                    url: current,
                    response: Box::new(response),
                });
            };
            let next = current.join(&location).map_err(|e| {
                SendError::Redirect(RedirectRefused {
                    url: current.to_string(),
                    to: location.clone(),
                    reason: format!("the Location is not a valid URL: {e}"),
                })
            })?;
            redirect_allowed(&current, &next).map_err(|reason| {
                SendError::Redirect(RedirectRefused {
                    url: current.to_string(),
                    to: next.to_string(),
                    reason: reason.to_owned(),
                })
            })?;
            if let Some(check) = &request.on_redirect {
                check(&current, &next).map_err(|reason| {
                    SendError::Redirect(RedirectRefused {
                        url: current.to_string(),
                        to: next.to_string(),
                        reason,
                    })
                })?;
            }
            current = next;
        }
        Err(SendError::Redirect(RedirectRefused {
            url: request.url.to_string(),
            to: current.to_string(),
            reason: format!("more than {} redirects", settings.max_redirects),
        }))
    }

    /// The blocking face of [`Http::send`]: the request and every read of
    /// its body run on the network runtime, the whole transfer within
    /// `deadline` (`None`: the settings' deadline from now).
    pub fn send_blocking(
        &self,
        request: Request,
        deadline: Option<Instant>,
    ) -> Result<Answer, SendError> {
        let total = self.inner.settings.deadline;
        let end = deadline.unwrap_or_else(|| Instant::now() + total);
        let http = self.clone();
        let sent = wait(async move {
            match tokio::time::timeout_at(end.into(), http.send(&request)).await {
                Ok(result) => result,
                Err(_) => Err(SendError::Deadline(total)),
            }
        })
        .map_err(SendError::Client)??;
        let s = &self.inner.settings;
        Ok(Answer {
            status: sent.response.status(),
            headers: sent.response.headers().clone(),
            url: sent.url,
            body: Some(BodyStream::new(
                sent.response,
                s.idle_timeout,
                s.min_rate,
                Some((end, total)),
            )),
            chunk: Bytes::new(),
            failed: None,
        })
    }
}

/// A check of one redirect hop on top of the policy's own (e.g. git's: the
/// new URL must keep the request's path tail).
pub type RedirectCheck = Arc<dyn Fn(&Url, &Url) -> Result<(), String> + Send + Sync>;

/// One request.
#[derive(Clone)]
pub struct Request {
    pub method: Method,
    pub url: Url,
    pub headers: HeaderMap,
    pub body: Option<Bytes>,
    /// Sent only to URLs it [applies to](Auth::applies_to).
    pub auth: Option<Auth>,
    /// Follow 3xx answers (by hand, under the policy); else return them.
    pub follow_redirects: bool,
    /// `--allow-http`: plain http to a host other than this machine.
    pub allow_http: bool,
    pub on_redirect: Option<RedirectCheck>,
}

impl Request {
    pub fn new(method: Method, url: Url) -> Self {
        Request {
            method,
            url,
            headers: HeaderMap::new(),
            body: None,
            auth: None,
            follow_redirects: true,
            allow_http: false,
            on_redirect: None,
        }
    }

    pub fn get(url: Url) -> Self {
        Request::new(Method::GET, url)
    }

    /// Adds a header; a value that cannot be sent is an error.
    pub fn header(mut self, name: header::HeaderName, value: &str) -> Result<Self, SendError> {
        let value = HeaderValue::from_str(value).map_err(|_| {
            SendError::Client(NetError::Client(format!(
                "header {name} has a value that cannot be sent"
            )))
        })?;
        self.headers.append(name, value);
        Ok(self)
    }
}

/// A request's final answer (async face).
#[derive(Debug)]
pub struct Sent {
    /// The URL that answered, after redirects.
    pub url: Url,
    pub response: reqwest::Response,
}

/// A request's final answer (blocking face); its body reads as
/// `std::io::Read`, each read under the idle timeout, the minimum rate and
/// the transfer's deadline.
pub struct Answer {
    pub status: StatusCode,
    /// The URL that answered, after redirects.
    pub url: Url,
    pub headers: HeaderMap,
    body: Option<BodyStream>,
    chunk: Bytes,
    /// The failure that ended the body, said again to any later read (so
    /// a stopped body never reads as a complete one).
    failed: Option<(io::ErrorKind, String)>,
}

impl Answer {
    /// At most `max` bytes of the body; more is an error.
    pub fn read_capped(&mut self, max: u64) -> io::Result<Vec<u8>> {
        let mut body = Vec::new();
        self.take(max + 1).read_to_end(&mut body)?;
        if body.len() as u64 > max {
            return Err(io::Error::other(format!(
                "the response is larger than {max} bytes"
            )));
        }
        Ok(body)
    }
}

impl Read for Answer {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.chunk.is_empty() {
            let Some(mut body) = self.body.take() else {
                return match &self.failed {
                    Some((kind, text)) => Err(io::Error::new(*kind, text.clone())),
                    None => Ok(0),
                };
            };
            let (body, next) = match wait(async move {
                let next = body.next().await;
                (body, next)
            }) {
                Ok(done) => done,
                Err(e) => {
                    self.failed = Some((io::ErrorKind::Other, e.to_string()));
                    return Err(io::Error::other(e));
                }
            };
            match next {
                Ok(Some(chunk)) => {
                    self.body = Some(body);
                    self.chunk = chunk;
                }
                Ok(None) => return Ok(0),
                Err(e) => {
                    let kind = match e.why() {
                        Why::Timeout | Why::TooSlow => io::ErrorKind::TimedOut,
                        _ => io::ErrorKind::Other,
                    };
                    self.failed = Some((kind, e.to_string()));
                    return Err(io::Error::new(kind, e));
                }
            }
        }
        let n = buf.len().min(self.chunk.len());
        buf[..n].copy_from_slice(&self.chunk[..n]);
        let _ = self.chunk.split_to(n);
        Ok(n)
    }
}

/// A redirect the network policy refused (`redirect_allowed`, the caller's
/// check, an unreadable `Location`, too many hops): one type for every
/// caller that reports it.
#[derive(Debug, thiserror::Error)]
#[error("{url}: redirect to {to} refused: {reason}")]
pub struct RedirectRefused {
    pub url: String,
    pub to: String,
    pub reason: String,
}

crate::classified!(RedirectRefused => Network);

/// Why a request got no answer to give back.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error(transparent)]
    PlainHttp(NetError),
    #[error(transparent)]
    Redirect(RedirectRefused),
    /// A 3xx without a `Location`: the answer, for the caller to judge.
    #[error("{url}: the server answered {} (a redirect without a Location header)", response.status())]
    NoLocation {
        url: Url,
        response: Box<reqwest::Response>,
    },
    #[error("{url}: no answer within {after:?}")]
    NoAnswer { url: String, after: Duration },
    #[error("the transfer took longer than SKILLPM_HTTP_DEADLINE ({0:?})")]
    Deadline(Duration),
    #[error("{url}: {}", super::chain_text(source))]
    Transport {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    #[error(transparent)]
    Unreachable(super::Unreachable),
    #[error(transparent)]
    Client(NetError),
}

impl SendError {
    /// The failure in words a person knows.
    pub fn why(&self) -> Why {
        match self {
            SendError::NoAnswer { .. } | SendError::Deadline(_) => Why::Timeout,
            SendError::Transport { source, .. } => Why::of(source),
            SendError::NoLocation { response, .. } => Why::Status(response.status().as_u16()),
            SendError::Unreachable(gone) => gone.why.clone(),
            other => Why::Other(other.to_string()),
        }
    }
}

crate::classified!(SendError);
impl crate::error::Classify for SendError {
    fn exit(&self) -> crate::error::Exit {
        use crate::error::Exit;
        match self {
            SendError::PlainHttp(e) | SendError::Client(e) => e.exit(),
            SendError::Redirect(refused) => refused.exit(),
            SendError::NoLocation { .. }
            | SendError::NoAnswer { .. }
            | SendError::Deadline(_)
            | SendError::Unreachable(_)
            | SendError::Transport { .. } => Exit::Network,
        }
    }
}
