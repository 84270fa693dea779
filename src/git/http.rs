//! Git's smart HTTP through the one client (docs/network.md#git-over-https): gix's
//! blocking HTTP trait implemented on `crate::net::Http`, so a git fetch
//! over http(s) obeys the same rules as every other request — plain http
//! only to loopback (or with `--allow-http`), redirects checked hop by hop,
//! a credential only to its own origin, the idle timeout, the minimum rate
//! and one deadline for the whole fetch.
//!
//! Git's own redirect rule stays on top: only the first request of a fetch
//! (`info/refs`) may be redirected (git's `http.followRedirects=initial`),
//! and the new URL must keep the request's tail, which gives the new base
//! every later request uses.

use std::io::{self, BufRead, BufReader, Cursor, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use gix::protocol::transport::client::blocking_io::http::{
    self as githttp, GetResponse, PostBodyDataKind, PostResponse,
};
use reqwest::Method;
use reqwest::header::{HeaderName, HeaderValue};
use url::Url;

use crate::net::{self, Answer, SendError};

/// The first failure the client reported during a fetch, kept apart from
/// gix's account of it so the caller reports it as itself (plain http is
/// exit 2, like the check before connecting; a timeout is put into the
/// policy's words).
pub(crate) type Refusal = Arc<Mutex<Option<SendError>>>;

/// The HTTP side of one git fetch.
pub(crate) struct GitHttp {
    http: net::Http,
    allow_http: bool,
    /// The whole fetch, every request, ends by then.
    deadline: Instant,
    /// Whether a request was made (only the first may be redirected).
    first_done: bool,
    redirected_base: Option<String>,
    refusal: Refusal,
}

impl GitHttp {
    pub(crate) fn new(http: net::Http, allow_http: bool) -> (Self, Refusal) {
        let refusal = Refusal::default();
        let deadline = Instant::now() + http.settings().deadline;
        (
            GitHttp {
                http,
                allow_http,
                deadline,
                first_done: false,
                redirected_base: None,
                refusal: refusal.clone(),
            },
            refusal,
        )
    }

    /// The request for `url` (below `base_url`) with gix's header lines; an
    /// `Authorization` line becomes a credential bound to the base's origin.
    fn request(
        &mut self,
        method: Method,
        url: &str,
        base_url: &str,
        lines: impl IntoIterator<Item = impl AsRef<str>>,
    ) -> Result<net::Request, io::Error> {
        let parsed = Url::parse(url).map_err(|e| io::Error::other(format!("{url}: {e}")))?;
        let base = Url::parse(base_url).unwrap_or_else(|_| parsed.clone());
        let mut request = net::Request::new(method, parsed);
        request.allow_http = self.allow_http;
        for line in lines {
            let Some((name, value)) = line.as_ref().split_once(':') else {
                continue;
            };
            let value = value.trim();
            if name.trim().eq_ignore_ascii_case("authorization") {
                request.auth = net::Auth::with_header(&base, "git credentials", value);
                continue;
            }
            if let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.trim().as_bytes()),
                HeaderValue::from_str(value),
            ) {
                request.headers.append(name, value);
            }
        }
        // Only the first request of a fetch may be redirected, and only to
        // a URL that keeps the request's tail (git's own rule).
        request.follow_redirects = !self.first_done;
        self.first_done = true;
        let tail = url.strip_prefix(base_url).unwrap_or_default().to_owned();
        request.on_redirect = Some(Arc::new(move |_, to: &Url| {
            if to.as_str().ends_with(&tail) {
                Ok(())
            } else {
                Err(format!(
                    "a git redirect must keep the request's path (`{tail}`)"
                ))
            }
        }));
        Ok(request)
    }

    /// Sends `request`; a refusal by the policy is also kept for the caller.
    fn send(&mut self, request: net::Request, base_url: &str) -> io::Result<Answer> {
        let asked = request.url.clone();
        let answer = send(&self.http, request, self.deadline, &self.refusal)?;
        if answer.url != asked {
            let tail = asked.as_str().strip_prefix(base_url).unwrap_or_default();
            if let Some(base) = answer.url.as_str().strip_suffix(tail) {
                self.redirected_base = Some(base.to_owned());
            }
        }
        Ok(answer)
    }
}

fn send(
    http: &net::Http,
    request: net::Request,
    deadline: Instant,
    refusal: &Refusal,
) -> io::Result<Answer> {
    match http.send_blocking(request, Some(deadline)) {
        Ok(answer) => Ok(answer),
        Err(e) => {
            let kind = match e.why() {
                net::Why::Timeout => io::ErrorKind::TimedOut,
                _ => io::ErrorKind::Other,
            };
            let text = e.to_string();
            if let Ok(mut slot) = refusal.lock() {
                slot.get_or_insert(e);
            }
            Err(io::Error::new(kind, text))
        }
    }
}

/// Turns a non-success status into the error gix expects: 401 as
/// `PermissionDenied` carrying the server's challenges (so credential
/// helpers can answer), anything else as a plain error.
fn check_status(answer: &Answer) -> io::Result<()> {
    let status = answer.status;
    if status.is_success() {
        return Ok(());
    }
    if status.as_u16() == 401 {
        let www_authenticate = answer
            .headers
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .map(|v| v.as_bytes().into())
            .collect();
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            gix::protocol::transport::client::AuthenticationRequired { www_authenticate },
        ));
    }
    let why = net::Why::Status(status.as_u16());
    let kind = if status.is_server_error() {
        io::ErrorKind::ConnectionAborted
    } else {
        io::ErrorKind::Other
    };
    Err(io::Error::new(kind, format!("{}: {why}", answer.url)))
}

/// The answer's headers as gix reads them: `name:value` lines.
fn header_lines(answer: &Answer) -> Cursor<Vec<u8>> {
    let mut out = Vec::new();
    for (name, value) in &answer.headers {
        out.extend_from_slice(name.as_str().as_bytes());
        out.push(b':');
        out.extend_from_slice(value.as_bytes());
        out.push(b'\n');
    }
    Cursor::new(out)
}

fn gix_error(e: io::Error) -> gix::error::Error {
    gix::error::Error::from_error(e)
}

/// A POST's exchange: its body is written first, then sent when the writer
/// is dropped; headers and body read the answer.
#[derive(Default)]
pub(crate) struct PostState {
    pending: Option<(net::Http, net::Request, Instant, Refusal)>,
    answer: Option<io::Result<Answer>>,
}

impl PostState {
    /// Sends the pending request with `body` (once).
    fn send(&mut self, body: Vec<u8>) {
        if let Some((http, mut request, deadline, refusal)) = self.pending.take() {
            request.body = Some(body.into());
            self.answer = Some(send(&http, request, deadline, &refusal).and_then(|a| {
                check_status(&a)?;
                Ok(a)
            }));
        }
    }
}

/// The body gix writes to a POST.
pub(crate) struct PostBody {
    buffer: Vec<u8>,
    state: Arc<Mutex<PostState>>,
}

impl Write for PostBody {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for PostBody {
    fn drop(&mut self) {
        let body = std::mem::take(&mut self.buffer);
        if let Ok(mut state) = self.state.lock() {
            state.send(body);
        }
    }
}

/// The headers of an answer that may not have been asked for yet.
pub(crate) enum Headers {
    Ready(Cursor<Vec<u8>>),
    Later(Arc<Mutex<PostState>>, Cursor<Vec<u8>>, bool),
}

impl Read for Headers {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let data = self.fill_buf()?;
            let n = data.len().min(buf.len());
            buf[..n].copy_from_slice(&data[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Headers {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Headers::Ready(c) => c.fill_buf(),
            Headers::Later(state, cursor, loaded) => {
                if !*loaded {
                    *loaded = true;
                    let mut s = state
                        .lock()
                        .map_err(|_| io::Error::other("the request's state is poisoned"))?;
                    s.send(Vec::new());
                    match s.answer.as_ref() {
                        Some(Ok(answer)) => *cursor = header_lines(answer),
                        Some(Err(e)) => return Err(io::Error::new(e.kind(), e.to_string())),
                        None => {}
                    }
                }
                cursor.fill_buf()
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        match self {
            Headers::Ready(c) | Headers::Later(_, c, _) => c.consume(amount),
        }
    }
}

/// The body of an answer that may not have been asked for yet.
pub(crate) enum ResponseBody {
    Ready(Box<BufReader<Answer>>),
    Later(Arc<Mutex<PostState>>),
    Failed,
}

impl ResponseBody {
    fn ready(&mut self) -> io::Result<&mut BufReader<Answer>> {
        if let ResponseBody::Later(state) = self {
            let answer = {
                let mut s = state
                    .lock()
                    .map_err(|_| io::Error::other("the request's state is poisoned"))?;
                s.send(Vec::new());
                s.answer.take()
            };
            *self = match answer {
                Some(Ok(answer)) => ResponseBody::Ready(Box::new(BufReader::new(answer))),
                Some(Err(e)) => {
                    *self = ResponseBody::Failed;
                    return Err(e);
                }
                None => ResponseBody::Failed,
            };
        }
        match self {
            ResponseBody::Ready(r) => Ok(r),
            _ => Err(io::Error::other("the request failed")),
        }
    }
}

impl Read for ResponseBody {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.ready()?.read(buf)
    }
}

impl BufRead for ResponseBody {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.ready()?.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if let ResponseBody::Ready(r) = self {
            r.consume(amount);
        }
    }
}

impl githttp::Http for GitHttp {
    type Headers = Headers;
    type ResponseBody = ResponseBody;
    type PostBody = PostBody;

    fn get(
        &mut self,
        url: &str,
        base_url: &str,
        headers: impl IntoIterator<Item = impl AsRef<str>>,
    ) -> gix::error::Result<GetResponse<Self::Headers, Self::ResponseBody>> {
        let request = self
            .request(Method::GET, url, base_url, headers)
            .map_err(gix_error)?;
        let answer = self.send(request, base_url).map_err(gix_error)?;
        check_status(&answer).map_err(gix_error)?;
        Ok(GetResponse {
            headers: Headers::Ready(header_lines(&answer)),
            body: ResponseBody::Ready(Box::new(BufReader::new(answer))),
        })
    }

    fn post(
        &mut self,
        url: &str,
        base_url: &str,
        headers: impl IntoIterator<Item = impl AsRef<str>>,
        _body: PostBodyDataKind,
    ) -> gix::error::Result<PostResponse<Self::Headers, Self::ResponseBody, Self::PostBody>> {
        let request = self
            .request(Method::POST, url, base_url, headers)
            .map_err(gix_error)?;
        let state = Arc::new(Mutex::new(PostState {
            pending: Some((
                self.http.clone(),
                request,
                self.deadline,
                self.refusal.clone(),
            )),
            answer: None,
        }));
        Ok(PostResponse {
            post_body: PostBody {
                buffer: Vec::new(),
                state: state.clone(),
            },
            headers: Headers::Later(state.clone(), Cursor::new(Vec::new()), false),
            body: ResponseBody::Later(state),
        })
    }

    fn configure(&mut self, _config: &dyn std::any::Any) -> gix::error::Result<()> {
        // Timeouts, proxies and TLS are the one client's (`crate::net`),
        // not git configuration's.
        Ok(())
    }

    fn redirected_base_url(&self) -> Option<String> {
        self.redirected_base.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use githttp::Http as _;
    use std::net::TcpListener;
    use std::sync::mpsc;

    /// A one-request server: answers `answer` and hands back the request's
    /// head.
    fn one_shot(
        answer: impl Fn(&str) -> String + Send + 'static,
    ) -> (String, mpsc::Receiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = mpsc::channel();
        let own = base.clone();
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = listener.accept() {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                    head.push(byte[0]);
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let _ = stream.write_all(answer(&own).as_bytes());
                let _ = tx.send(head);
            }
        });
        (base, rx)
    }

    #[test]
    fn a_redirect_to_another_origin_does_not_carry_the_credential() {
        const TAIL: &str = "info/refs?service=git-upload-pack";
        let (b, b_saw) = one_shot(|_| {
            "HTTP/1.1 200 OK\r\ncontent-type: application/x-git-upload-pack-advertisement\r\ncontent-length: 4\r\nconnection: close\r\n\r\n0000".into()
        });
        let target = format!("{b}/moved/skills.git/{TAIL}");
        let (a, a_saw) = one_shot(move |_| {
            format!(
                "HTTP/1.1 302 Found\r\nlocation: {target}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            )
        });
        let base = format!("{a}/skills.git");
        let (mut client, _) = GitHttp::new(net::Http::new(net::Settings::default()), false);
        let response = client
            .get(
                &format!("{base}/{TAIL}"),
                &base,
                ["Authorization: Basic c2VjcmV0", "Git-Protocol: version=2"],
            )
            .unwrap();
        let mut body = String::new();
        let mut reader = response.body;
        reader.read_to_string(&mut body).unwrap();
        assert_eq!(body, "0000");
        let a_head = a_saw.recv().unwrap().to_ascii_lowercase();
        let b_head = b_saw.recv().unwrap().to_ascii_lowercase();
        assert!(a_head.contains("authorization: basic c2vjcmv0"), "{a_head}");
        assert!(!b_head.contains("authorization"), "{b_head}");
        assert!(b_head.contains("git-protocol: version=2"), "{b_head}");
        // Later requests go to the new base.
        assert_eq!(
            client.redirected_base_url().as_deref(),
            Some(format!("{b}/moved/skills.git").as_str())
        );
    }

    #[test]
    fn only_the_first_request_may_be_redirected() {
        let (a, _a_saw) = one_shot(|own| {
            format!(
                "HTTP/1.1 302 Found\r\nlocation: {own}/x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            )
        });
        let base = format!("{a}/skills.git");
        let (mut client, failure) = GitHttp::new(net::Http::new(net::Settings::default()), false);
        client.first_done = true;
        let err = client
            .get(
                &format!("{base}/info/refs"),
                &base,
                ["Git-Protocol: version=2"],
            )
            .err()
            .expect("a redirect on a later request is not followed");
        assert!(err.to_string().contains("302"), "{err}");
        assert!(failure.lock().unwrap().is_none());
    }
}
