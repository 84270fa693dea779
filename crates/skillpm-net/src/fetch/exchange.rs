//! One request of any method whose answer the caller interprets itself: the
//! OCI distribution API (`crate::sources::oci`) reads 401 challenges, 202
//! upload locations and digest headers that [`super::Fetcher::get`] would
//! turn into errors. Same client, timeouts, retries (429/5xx, broken
//! connections) and redirect rules as every other request: GET and HEAD
//! follow redirects by hand, https never leads to http, and the credential
//! goes only to its own origin, never to a redirect's other host.

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use url::Url;

use super::{Auth, FetchError, FetchFailure, Fetcher, http, with_retries};

/// The methods the OCI API needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    Head,
    Post,
    Put,
}

/// One request.
#[derive(Debug, Clone)]
pub struct Exchange<'a> {
    pub verb: Verb,
    pub url: Url,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<Vec<u8>>,
    pub auth: Option<&'a Auth>,
    /// Most bytes of answer body read; more is refused.
    pub max_bytes: u64,
}

/// What the server answered (after redirects), body read in full.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub url: Url,
    headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's text, when present and printable.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every value of a header (e.g. several `WWW-Authenticate` challenges).
    pub fn headers_named(&self, name: &str) -> Vec<&str> {
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect()
    }

    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

impl Exchange<'_> {
    /// The same request with `auth` as its credential.
    pub fn authed<'b>(&self, auth: Option<&'b Auth>) -> Exchange<'b> {
        Exchange {
            verb: self.verb,
            url: self.url.clone(),
            headers: self.headers.clone(),
            body: self.body.clone(),
            auth,
            max_bytes: self.max_bytes,
        }
    }

    pub fn new(verb: Verb, url: Url, max_bytes: u64) -> Self {
        Exchange {
            verb,
            url,
            headers: Vec::new(),
            body: None,
            auth: None,
            max_bytes,
        }
    }
}

impl Fetcher {
    /// Sends one request and returns the answer whatever its status (only
    /// 429 and 5xx are retried, then reported as transport failures).
    pub fn exchange(&self, ex: &Exchange<'_>) -> Result<Reply, FetchError> {
        if !matches!(ex.url.scheme(), "http" | "https") {
            return Err(FetchError::UnsupportedScheme {
                url: ex.url.to_string(),
                scheme: ex.url.scheme().to_owned(),
            });
        }
        if self.shared.offline {
            return Err(FetchError::Offline {
                url: ex.url.to_string(),
            });
        }
        let shared = self.shared.clone();
        self.runtime()?.block_on(async move {
            let client = shared.client()?;
            let work = with_retries(&shared, &ex.url, || async {
                let mut reply = send(client, &shared.config, ex).await?;
                if let Some(again) = crate::retry_status(&reply.0) {
                    return Err(again);
                }
                let status = reply.0.status();
                let mut body = Vec::new();
                if ex.verb != Verb::Head {
                    http::stream_body(
                        &mut reply.0,
                        &reply.1,
                        &shared.config,
                        ex.max_bytes,
                        |chunk| {
                            body.extend_from_slice(chunk);
                            Ok(())
                        },
                    )
                    .await?;
                }
                Ok(Reply {
                    status: status.as_u16(),
                    headers: reply.0.headers().clone(),
                    url: reply.1,
                    body,
                })
            });
            shared.within_deadline(&ex.url, work).await
        })
    }
}

async fn send(
    http: &crate::Http,
    config: &super::FetchConfig,
    ex: &Exchange<'_>,
) -> Result<(reqwest::Response, Url), FetchFailure> {
    let method = match ex.verb {
        Verb::Get => Method::GET,
        Verb::Head => Method::HEAD,
        Verb::Post => Method::POST,
        Verb::Put => Method::PUT,
    };
    let mut request = crate::Request::new(method, ex.url.clone());
    for (name, value) in &ex.headers {
        let value = HeaderValue::from_str(value).map_err(|_| {
            FetchFailure::Fatal(FetchError::Client(format!(
                "header {name} has a value that cannot be sent"
            )))
        })?;
        request.headers.append(HeaderName::from_static(name), value);
    }
    request.body = ex.body.clone().map(Into::into);
    request.auth = ex.auth.cloned();
    request.follow_redirects = matches!(ex.verb, Verb::Get | Verb::Head);
    request.allow_http = config.allow_http;
    match http.send_once(&request).await {
        Ok(sent) => Ok((sent.response, sent.url)),
        // A 3xx without a Location is the caller's to read.
        Err(crate::SendError::NoLocation { url, response }) => Ok((*response, url)),
        Err(e) => Err(http::send_failure(e)),
    }
}
