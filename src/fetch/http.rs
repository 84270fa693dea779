//! One HTTP attempt: the request, its redirects, and what its failure means.
//!
//! Redirects are followed here by hand rather than by reqwest's policy, so
//! that two rules hold on every hop: an https URL never leads to plain http
//! (or anywhere but http/https), and a bearer token is attached only to a hop
//! whose origin is the source's own origin, never forwarded elsewhere.

use std::time::{Duration, SystemTime};

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Client, Response, StatusCode};
use url::Url;

use super::retry::{Failure, parse_retry_after};
use super::{Auth, FetchConfig, FetchError};

/// Builds the one client every request of a run shares (connection reuse,
/// HTTP/2 where the server offers it, rustls with the platform's roots).
pub(crate) fn build_client(config: &FetchConfig) -> Result<Client, FetchError> {
    Client::builder()
        .user_agent(concat!("skillpm/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(config.connect_timeout)
        .read_timeout(config.read_timeout)
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        .tcp_nodelay(true)
        .pool_idle_timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| FetchError::Client(error_chain(&e)))
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
        let mut request = client.get(current.clone()).headers(extra.clone());
        if let Some(auth) = auth.filter(|a| a.applies_to(&current)) {
            request = request.header(header::AUTHORIZATION, auth.header_value());
        }
        let response = request
            .send()
            .await
            .map_err(|e| classify_error(&current, &e))?;
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
    let refused = |reason: &str| {
        Err(FetchError::Redirect {
            url: from.to_string(),
            to: to.to_string(),
            reason: reason.to_owned(),
        })
    };
    match (from.scheme(), to.scheme()) {
        ("https", "https") | ("http", "http" | "https") => Ok(()),
        ("https", "http") => refused("a redirect from https to plain http is never followed"),
        _ => refused("redirects may only lead to http or https URLs"),
    }
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
                message: format!("server answered {status}"),
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
/// declared or as sent) is refused, a body shorter than declared is transient.
pub(crate) async fn stream_body(
    response: &mut Response,
    url: &Url,
    max: u64,
    mut sink: impl FnMut(&[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let declared = response.content_length();
    if declared.is_some_and(|n| n > max) {
        return Err(Failure::Fatal(FetchError::too_large(url, max)));
    }
    let mut size = 0u64;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                size += chunk.len() as u64;
                if size > max {
                    return Err(Failure::Fatal(FetchError::too_large(url, max)));
                }
                sink(&chunk)?;
            }
            Ok(None) => break,
            Err(e) => return Err(classify_error(url, &e)),
        }
    }
    match declared.filter(|&n| n != size) {
        Some(n) => Err(Failure::transient(format!(
            "the body was cut short: {size} of {n} bytes"
        ))),
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
            message: detail,
        });
    }
    if error.is_builder() {
        return Failure::Fatal(FetchError::Client(detail));
    }
    if error.is_timeout() {
        return Failure::transient(format!("timed out: {detail}"));
    }
    if error.is_connect() {
        return Failure::transient(format!("cannot connect: {detail}"));
    }
    if error.is_body() || error.is_decode() {
        return Failure::transient(format!(
            "the connection broke while reading the body: {detail}"
        ));
    }
    Failure::transient(detail)
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
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        let part = e.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        cause = e.source();
    }
    text
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_never_redirects_down_to_http_or_files() {
        let https = Url::parse("https://a.example/index.json").unwrap();
        let http = Url::parse("http://a.example/index.json").unwrap();
        let file = Url::parse("file:///etc/passwd").unwrap();
        assert!(check_redirect(&https, &http).is_err());
        assert!(check_redirect(&https, &file).is_err());
        assert!(check_redirect(&http, &file).is_err());
        assert!(check_redirect(&http, &https).is_ok());
        assert!(check_redirect(&https, &Url::parse("https://cdn.example/x").unwrap()).is_ok());
    }
}
