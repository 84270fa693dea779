//! One HTTP attempt: the request (through the one client, `crate::Http`,
//! which follows redirects by hand under the network policy: https never
//! leads to plain http, a bearer token only ever goes to its own origin),
//! and what its failure means for the retry loop.

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Response, StatusCode};
use url::Url;

use super::{Auth, FetchConfig, FetchError, FetchFailure};
use crate::{self as net, BodyError, Http, NetError, SendError, Why};

/// A fresh answer to a (possibly conditional) GET, with the headers the
/// caches keep: the type, and the validators to revalidate it next time.
pub(crate) struct Fresh {
    pub final_url: Url,
    pub response: Response,
    pub content_type: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// Sends a GET carrying `conditional` validators; `None` when the server
/// answers 304 (what is cached still holds), else the answer to read.
/// Statuses other than success and 304 are failures ([`check_status`]).
pub(crate) async fn send_revalidating(
    http: &Http,
    config: &FetchConfig,
    url: &Url,
    auth: Option<&Auth>,
    conditional: &HeaderMap,
) -> Result<Option<Fresh>, FetchFailure> {
    let (final_url, response) = send(http, config, url, auth, conditional).await?;
    check_status(&final_url, &response, auth)?;
    if response.status() == StatusCode::NOT_MODIFIED {
        return Ok(None);
    }
    let text_header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .map(str::to_owned)
    };
    Ok(Some(Fresh {
        content_type: text_header(header::CONTENT_TYPE),
        etag: text_header(header::ETAG),
        last_modified: text_header(header::LAST_MODIFIED),
        final_url,
        response,
    }))
}

/// Sends a GET, following redirects, and returns the final response whatever
/// its status. `extra` headers (conditional validators) go on every hop.
pub(crate) async fn send(
    http: &Http,
    config: &FetchConfig,
    url: &Url,
    auth: Option<&Auth>,
    extra: &HeaderMap,
) -> Result<(Url, Response), FetchFailure> {
    let mut request = net::Request::get(url.clone());
    request.headers = extra.clone();
    request.auth = auth.cloned();
    request.allow_http = config.allow_http;
    let sent = http.send_once(&request).await.map_err(send_failure)?;
    Ok((sent.url, sent.response))
}

/// What a request that got no answer means for the retry loop.
pub(crate) fn send_failure(e: SendError) -> FetchFailure {
    match e {
        SendError::PlainHttp(e) => FetchFailure::Fatal(FetchError::PlainHttp(e)),
        SendError::Redirect(refused) => FetchFailure::Fatal(FetchError::Redirect(refused)),
        SendError::NoLocation { url, response } => FetchFailure::Fatal(FetchError::Status {
            url: url.to_string(),
            status: response.status().as_u16(),
            hint: " (a redirect without a Location header)".into(),
        }),
        SendError::NoAnswer { after, .. } => {
            FetchFailure::transient(Why::Timeout, format!("no answer within {after:?}"))
        }
        SendError::Deadline(after) => FetchFailure::transient(
            Why::Timeout,
            format!("the transfer took longer than SKILLPM_HTTP_DEADLINE ({after:?})"),
        ),
        SendError::Transport { url, source } => match Url::parse(&url) {
            Ok(url) => classify_error(&url, &source),
            Err(_) => FetchFailure::transient(Why::of(&source), error_chain(&source)),
        },
        SendError::Unreachable(gone) => FetchFailure::Fatal(FetchError::Unreachable(gone)),
        SendError::Client(NetError::Client(text)) => FetchFailure::Fatal(FetchError::Client(text)),
        SendError::Client(other) => FetchFailure::Fatal(FetchError::Client(other.to_string())),
    }
}

/// Turns a non-success status into a failure; `Ok` for 2xx and 304.
pub(crate) fn check_status(
    url: &Url,
    response: &Response,
    auth: Option<&Auth>,
) -> Result<(), FetchFailure> {
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        return Ok(());
    }
    // Rate limiting and server trouble pass; the server says so.
    if let Some(again) = net::retry_status(response) {
        return Err(again);
    }
    let code = status.as_u16();
    let hint = match (code, auth) {
        (404 | 410, _) => return Err(FetchFailure::Fatal(FetchError::NotFound { url: url.to_string() })),
        (401 | 403, Some(a)) => format!(
            " (the token from ${} was sent and refused; check it and its permissions)",
            a.env_var()
        ),
        (401 | 403, None) => " (the registry wants credentials: set `token-env` on the source and put a token in that variable)".into(),
        _ => String::new(),
    };
    Err(FetchFailure::Fatal(FetchError::Status {
        url: url.to_string(),
        status: code,
        hint,
    }))
}

/// Streams the body of `response` into `sink`: more than `max` bytes (as
/// declared or as sent) is refused, a body shorter than declared is
/// transient, and so is a silence longer than the idle timeout. Once the
/// idle timeout has passed since the first byte was asked for, a body whose
/// average rate is below `config.min_rate` fails as too slow (docs/network.md;
/// the reading rules are the one client's, `crate::BodyStream`).
pub(crate) async fn stream_body(
    response: &mut Response,
    url: &Url,
    config: &FetchConfig,
    max: u64,
    mut sink: impl FnMut(&[u8]) -> Result<(), FetchFailure>,
) -> Result<(), FetchFailure> {
    let declared = response.content_length();
    if declared.is_some_and(|n| n > max) {
        return Err(FetchFailure::Fatal(FetchError::too_large(url, max)));
    }
    let mut body =
        net::BodyStream::new(response, config.net.idle_timeout, config.net.min_rate, None);
    loop {
        match body.next().await {
            Ok(Some(chunk)) => {
                if body.size() > max {
                    return Err(FetchFailure::Fatal(FetchError::too_large(url, max)));
                }
                sink(&chunk)?;
            }
            Ok(None) => break,
            Err(e) => return Err(body_failure(url, e)),
        }
    }
    let size = body.size();
    match declared.filter(|&n| n != size) {
        Some(n) => Err(FetchFailure::transient(
            Why::Broken,
            format!("the body was cut short: {size} of {n} bytes"),
        )),
        None => Ok(()),
    }
}

/// What a body that stopped means for the retry loop: too slow is final
/// for this request (the next try would be as slow), a stall is retried.
fn body_failure(url: &Url, e: BodyError) -> FetchFailure {
    match e {
        BodyError::TooSlow { .. } => FetchFailure::TooSlow {
            detail: e.to_string(),
        },
        BodyError::Idle { .. } | BodyError::Deadline(_) => {
            FetchFailure::transient(Why::Timeout, e.to_string())
        }
        BodyError::Transport(source) => classify_error(url, &source),
    }
}

/// Sorts a reqwest error into retry-worthy or final. TLS failures are final:
/// a certificate does not get better by asking again.
pub(crate) fn classify_error(url: &Url, error: &reqwest::Error) -> FetchFailure {
    let detail = error_chain(error);
    if is_tls_error(error) {
        return FetchFailure::Fatal(FetchError::Tls {
            url: url.to_string(),
            detail: net::Detail(detail),
        });
    }
    if error.is_builder() {
        return FetchFailure::Fatal(FetchError::Client(detail));
    }
    let why = match Why::of(error) {
        Why::Other(_) if error.is_body() || error.is_decode() => Why::Broken,
        why => why,
    };
    FetchFailure::transient(why, detail)
}

/// rustls reports handshake and certificate failures as `io::Error`s of kind
/// `InvalidData` wrapping its own error (themselves wrapped by the connector);
/// no plain network failure uses that kind.
fn is_tls_error(error: &reqwest::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        cause = match e.downcast_ref::<std::io::Error>() {
            Some(io) if io.kind() == std::io::ErrorKind::InvalidData => return true,
            // `io::Error::source` skips the wrapped error itself: look inside.
            Some(io) => match io.get_ref() {
                Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
                None => e.source(),
            },
            None => e.source(),
        };
    }
    false
}

/// The error and all its causes on one line, most specific last.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    net::chain_text(error)
}

/// Conditional-request headers from a cached body's validators.
pub(crate) fn conditional_headers(etag: Option<&str>, last_modified: Option<&str>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if let Some(v) = etag.and_then(|v| HeaderValue::from_str(v).ok()) {
        headers.insert(header::IF_NONE_MATCH, v);
    }
    if let Some(v) = last_modified.and_then(|v| HeaderValue::from_str(v).ok()) {
        headers.insert(header::IF_MODIFIED_SINCE, v);
    }
    headers
}
