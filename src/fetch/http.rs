//! One HTTP attempt: the request, its redirects, and what its failure means.
//!
//! Redirects are followed here by hand rather than by reqwest's policy, so
//! that two rules hold on every hop: an https URL never leads to plain http
//! (or anywhere but http/https), and a bearer token is attached only to a hop
//! whose origin is the source's own origin, never forwarded elsewhere.

use std::time::{Instant, SystemTime};

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Client, Response, StatusCode};
use url::Url;

use super::retry::{Failure, parse_retry_after};
use super::{Auth, FetchConfig, FetchError};
use crate::net::{self, Why};

/// Builds the one client every request of a run shares (connection reuse,
/// HTTP/2 where the server offers it, rustls with the platform's roots),
/// by the one network policy (`crate::net`).
pub(crate) fn build_client(config: &FetchConfig) -> Result<Client, FetchError> {
    net::async_client(&net::Timeouts {
        connect: config.connect_timeout,
        read: config.read_timeout,
        overall: config.deadline,
    })
    .map_err(|e| FetchError::Client(e.to_string()))
}

/// Sends a GET, following redirects, and returns the final response whatever
/// its status. `extra` headers (conditional validators) go on every hop.
pub(crate) async fn send(
    client: &Client,
    config: &FetchConfig,
    url: &Url,
    auth: Option<&Auth>,
    extra: &HeaderMap,
) -> Result<(Url, Response), Failure> {
    let mut current = url.clone();
    for _ in 0..=config.max_redirects {
        net::check_plain_http(&current, config.allow_http)
            .map_err(|e| Failure::Fatal(FetchError::PlainHttp(e)))?;
        let mut request = client.get(current.clone()).headers(extra.clone());
        if let Some(auth) = auth.filter(|a| a.applies_to(&current)) {
            request = request.header(header::AUTHORIZATION, auth.header_value());
        }
        // The answer's head within the idle timeout: a server that drips
        // its status line byte by byte is as dead as a silent one.
        let response = match tokio::time::timeout(config.read_timeout, request.send()).await {
            Ok(sent) => sent.map_err(|e| classify_error(&current, &e))?,
            Err(_) => {
                return Err(Failure::transient(
                    Why::Timeout,
                    format!("no answer within {:?}", config.read_timeout),
                ));
            }
        };
        if !response.status().is_redirection() || response.status() == StatusCode::NOT_MODIFIED {
            return Ok((current, response));
        }
        let location = response
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| {
                Failure::Fatal(FetchError::Status {
                    url: current.to_string(),
                    status: response.status().as_u16(),
                    hint: " (a redirect without a Location header)".into(),
                })
            })?;
        let next = current.join(location).map_err(|e| {
            Failure::Fatal(FetchError::Redirect {
                url: current.to_string(),
                to: location.to_owned(),
                reason: format!("the Location is not a valid URL: {e}"),
            })
        })?;
        check_redirect(&current, &next)?;
        current = next;
    }
    Err(Failure::Fatal(FetchError::Redirect {
        url: url.to_string(),
        to: current.to_string(),
        reason: format!("more than {} redirects", config.max_redirects),
    }))
}

/// Refuses a redirect that would lower the transport's security.
pub(crate) fn check_redirect(from: &Url, to: &Url) -> Result<(), FetchError> {
    net::redirect_allowed(from, to).map_err(|reason| FetchError::Redirect {
        url: from.to_string(),
        to: to.to_string(),
        reason: reason.to_owned(),
    })
}

/// Turns a non-success status into a failure; `Ok` for 2xx and 304.
pub(crate) fn check_status(
    url: &Url,
    response: &Response,
    auth: Option<&Auth>,
) -> Result<(), Failure> {
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        return Ok(());
    }
    let code = status.as_u16();
    let retry_after = response
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_retry_after(v, SystemTime::now()));
    let hint = match (code, auth) {
        (404 | 410, _) => return Err(Failure::Fatal(FetchError::NotFound { url: url.to_string() })),
        // Rate limiting and server trouble pass; the server says so.
        (429 | 500..=599, _) => {
            return Err(Failure::Transient {
                why: Why::Status(code),
                detail: format!("server answered {status}"),
                retry_after,
            });
        }
        (401 | 403, Some(a)) => format!(
            " (the token from ${} was sent and refused; check it and its permissions)",
            a.env_var()
        ),
        (401 | 403, None) => " (the registry wants credentials: set `token-env` on the source and put a token in that variable)".into(),
        _ => String::new(),
    };
    Err(Failure::Fatal(FetchError::Status {
        url: url.to_string(),
        status: code,
        hint,
    }))
}

/// Streams the body of `response` into `sink`: more than `max` bytes (as
/// declared or as sent) is refused, a body shorter than declared is
/// transient, and so is a silence longer than the idle timeout. Once the
/// idle timeout has passed since the first byte was asked for, a body whose
/// average rate is below `config.min_rate` fails as too slow (docs/network.md:
/// a server dripping a byte every few seconds never trips the idle timeout).
pub(crate) async fn stream_body(
    response: &mut Response,
    url: &Url,
    config: &FetchConfig,
    max: u64,
    mut sink: impl FnMut(&[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let declared = response.content_length();
    if declared.is_some_and(|n| n > max) {
        return Err(Failure::Fatal(FetchError::too_large(url, max)));
    }
    let started = Instant::now();
    // The rate is checked when the idle timeout has passed since the body
    // began (so a drip is ended then, not at its next byte), and again at
    // every byte after that.
    let check_at = started + config.read_timeout;
    let mut checked = false;
    let mut last_byte = started;
    let mut chunks = 0u32;
    let mut size = 0u64;
    let too_slow = |size: u64| {
        let elapsed = started.elapsed();
        (elapsed >= config.read_timeout
            && (size as f64) < config.min_rate as f64 * elapsed.as_secs_f64())
        .then(|| Failure::TooSlow {
            detail: format!(
                "{size} bytes in {:.1}s, below the minimum of {} bytes/s",
                elapsed.as_secs_f64(),
                config.min_rate
            ),
        })
    };
    loop {
        let idle_deadline = last_byte + config.read_timeout;
        let rate_check = !checked && check_at < idle_deadline;
        let wake = if rate_check { check_at } else { idle_deadline };
        let next = match tokio::time::timeout_at(wake.into(), response.chunk()).await {
            Ok(next) => next,
            Err(_) if rate_check => {
                checked = true;
                // Bytes still flowing, too slowly: a drip. One chunk and
                // then silence is a stall, which the idle timeout ends (and
                // which is retried).
                if chunks >= 2
                    && let Some(slow) = too_slow(size)
                {
                    return Err(slow);
                }
                continue;
            }
            Err(_) => {
                return Err(Failure::transient(
                    Why::Timeout,
                    format!(
                        "no byte for {:?} after {size} bytes of the body",
                        config.read_timeout
                    ),
                ));
            }
        };
        match next {
            Ok(Some(chunk)) => {
                last_byte = Instant::now();
                chunks += 1;
                size += chunk.len() as u64;
                if size > max {
                    return Err(Failure::Fatal(FetchError::too_large(url, max)));
                }
                sink(&chunk)?;
                if let Some(slow) = too_slow(size) {
                    return Err(slow);
                }
            }
            Ok(None) => break,
            Err(e) => return Err(classify_error(url, &e)),
        }
    }
    match declared.filter(|&n| n != size) {
        Some(n) => Err(Failure::transient(
            Why::Broken,
            format!("the body was cut short: {size} of {n} bytes"),
        )),
        None => Ok(()),
    }
}

/// Sorts a reqwest error into retry-worthy or final. TLS failures are final:
/// a certificate does not get better by asking again.
pub(crate) fn classify_error(url: &Url, error: &reqwest::Error) -> Failure {
    let detail = error_chain(error);
    if is_tls_error(error) {
        return Failure::Fatal(FetchError::Tls {
            url: url.to_string(),
            detail: net::Detail(detail),
        });
    }
    if error.is_builder() {
        return Failure::Fatal(FetchError::Client(detail));
    }
    let why = match Why::of(error) {
        Why::Other(_) if error.is_body() || error.is_decode() => Why::Broken,
        why => why,
    };
    Failure::transient(why, detail)
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
