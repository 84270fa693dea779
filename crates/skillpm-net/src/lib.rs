//! The one network policy (docs/network.md): every HTTP request skillpm
//! makes (registry fetches, the OCI API, the GitHub client, the MCP skills
//! client, git's smart HTTP) goes through the one client, [`Http`], so
//! timeouts, proxies, redirects, the user agent, the plain-http rule, where a
//! token may go, the retry budget per origin and how a failure is put into
//! words are decided once.
//!
//! * **The client** ([`client`]) never lets reqwest follow redirects: it
//!   follows them by hand and asks [`redirect_allowed`] and
//!   [`Credential::applies_to`] on every hop, so a token never leaves its
//!   origin and https never leads to plain http. Proxies come from the
//!   environment (`HTTPS_PROXY`, `NO_PROXY`, …) as reqwest reads them.
//! * **Plain http** is for loopback only (a registry on this machine);
//!   anything else needs `--allow-http` ([`check_plain_http`]).
//! * **Timeouts** ([`Settings`]): connect, idle (before the head and
//!   between reads), a minimum rate and an overall deadline ([`body`]).
//! * **Failures** are sorted into a few kinds people know ([`Why`]): refused,
//!   name not found, timeout, too slow, TLS, broken connection, HTTP status;
//!   the library's own text stays behind `--verbose`.

// The modules of the layers below, under the names the code uses
// (docs/architecture.md).
use skillpm_base::{cache, classified, digest, error, escape, fs};
use skillpm_trust as trust;

pub mod body;
mod budget;
pub mod client;
pub mod fetch;
mod retry;
mod settings;

pub use body::{BodyError, BodyStream};
pub use budget::Budget;
pub use client::{Answer, Http, RedirectRefused, Request, SendError};
pub use retry::{Failure, OnRetry, RetryNotice, Stop, Unreachable, retry_status};
pub use settings::Settings;

use std::net::IpAddr;

use url::Url;

use crate::error::{Classify, Exit};

/// The `User-Agent` of every request.
pub const USER_AGENT: &str = concat!("skillpm/", env!("CARGO_PKG_VERSION"));

#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("cannot start the HTTP client: {0}")]
    Client(String),
    #[error(
        "{url}: plain http is refused for a host that is not this machine (anyone on the way can read and change it)\n  use https://, or pass --allow-http if you accept that"
    )]
    PlainHttp { url: String },
}

crate::classified!(NetError);
impl Classify for NetError {
    fn exit(&self) -> Exit {
        match self {
            NetError::Client(_) => Exit::Other,
            NetError::PlainHttp { .. } => Exit::Usage,
        }
    }
}

/// A source URL that carries credentials (`user:password@`, or a user name
/// on anything but ssh): refused wherever a URL enters (the command line,
/// skills.toml, skills.lock, an index), because it would be written to
/// committed files, the cache and the terminal (docs/network.md). The URL is
/// only ever shown without them.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "{shown}: a source URL may not carry credentials (the part before `@`): they would be written to skills.toml, skills.lock and the cache\n  {advice}"
)]
pub struct CredentialsInUrl {
    /// The URL without its user information.
    pub shown: String,
    pub advice: String,
}

crate::classified!(CredentialsInUrl => Usage);

/// Refuses a URL (any scheme, `git+` and `mcp+` forms included) whose
/// authority holds user information: a password on any scheme, a user name
/// on anything but ssh (`ssh://git@host/…` and `git@host:…` name an ssh
/// account, not a secret). Text without `://` names no authority.
pub fn refuse_credentials(text: &str) -> Result<(), CredentialsInUrl> {
    let text = text.trim();
    let Some((scheme, rest)) = text.split_once("://") else {
        return Ok(());
    };
    let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
    let Some(at) = rest[..end].rfind('@') else {
        return Ok(());
    };
    let userinfo = &rest[..at];
    let scheme = scheme.to_ascii_lowercase();
    let ssh = matches!(scheme.as_str(), "ssh" | "git+ssh" | "ssh+git" | "sftp");
    if ssh && !userinfo.contains(':') {
        return Ok(());
    }
    let clean = format!("{scheme}://{}", &rest[at + 1..]);
    let shown = crate::escape::printable(&clean);
    let advice = if ssh {
        "remove the password and use an SSH key or agent".to_owned()
    } else {
        let host_var = (clean
            .strip_prefix("git+")
            .or_else(|| clean.strip_prefix("mcp+")))
        .unwrap_or(&clean)
        .parse::<Url>()
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .and_then(|u| host_token_var(&u).ok())
        .map(|var| format!(", or put the token in ${var}"))
        .unwrap_or_default();
        format!(
            "remove them and keep the secret in an environment variable that only you bind to this host: `skillpm source add <name> {shown} --token-env VAR` (recorded in your own tokens.toml, never in the project){host_var}"
        )
    };
    Err(CredentialsInUrl { shown, advice })
}

/// Whether `url`'s host is this machine: `localhost`, 127.0.0.0/8 or ::1.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// Plain `http://` only to loopback, unless the user allowed it.
pub fn check_plain_http(url: &Url, allow_http: bool) -> Result<(), NetError> {
    if url.scheme() == "http" && !allow_http && !is_loopback(url) {
        return Err(NetError::PlainHttp {
            url: url.to_string(),
        });
    }
    Ok(())
}

/// Refuses a redirect that would lower the transport's security: https
/// never leads to plain http, and nothing leads away from http(s).
pub fn redirect_allowed(from: &Url, to: &Url) -> Result<(), &'static str> {
    match (from.scheme(), to.scheme()) {
        ("https", "https") | ("http", "http" | "https") => Ok(()),
        ("https", "http") => Err("a redirect from https to plain http is never followed"),
        _ => Err("redirects may only lead to http or https URLs"),
    }
}

/// A secret bound to the one origin (scheme, host and port) it may be sent
/// to, and to the place the user bound it (shown in messages, never the
/// secret).
#[derive(Clone)]
pub struct Credential {
    origin: url::Origin,
    /// Further origins the user's binding covers (GitHub's API and archive
    /// hosts share one token).
    also: Vec<url::Origin>,
    /// Where the binding came from, e.g. `$SKILLPM_TOKEN_skills_acme_dev`.
    pub from: String,
    secret: String,
}

impl Credential {
    /// `None` when the secret is empty or `url` has no origin to bind to.
    pub fn new(url: &Url, from: impl Into<String>, secret: &str) -> Option<Self> {
        let origin = url.origin();
        let secret = secret.trim();
        (origin.is_tuple() && !secret.is_empty()).then(|| Credential {
            origin,
            also: Vec::new(),
            from: from.into(),
            secret: secret.to_owned(),
        })
    }

    /// The same secret, also for `url`'s origin.
    pub fn also_for(mut self, url: &Url) -> Self {
        let origin = url.origin();
        if origin.is_tuple() && origin != self.origin {
            self.also.push(origin);
        }
        self
    }

    /// True only for URLs on the credential's own origin(s).
    pub fn applies_to(&self, url: &Url) -> bool {
        let origin = url.origin();
        origin == self.origin || self.also.contains(&origin)
    }

    pub fn secret(&self) -> &str {
        &self.secret
    }

    pub fn origin(&self) -> String {
        self.origin.ascii_serialization()
    }
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credential({} for {})", self.from, self.origin())
    }
}

/// A credential with its `Authorization` header made once: what a request
/// carries ([`Request::auth`]), sent only where the credential applies.
#[derive(Clone)]
pub struct Auth {
    credential: Credential,
    header: reqwest::header::HeaderValue,
}

impl Auth {
    /// A bearer token for the origin of `source_url`, read from `env_var` by
    /// the caller. `None` when the token cannot be sent as a header (control
    /// characters) or the URL has no origin to bind it to.
    pub fn bearer(source_url: &Url, env_var: &str, token: &str) -> Option<Self> {
        let credential = Credential::new(source_url, env_var, token)?;
        let value = format!("Bearer {}", credential.secret());
        Auth::of(credential, &value)
    }

    /// Any `Authorization` value (`Basic …`, a registry's `Bearer …` token)
    /// bound to the origin of `url`; `what` names its origin in messages
    /// (e.g. `~/.docker/config.json`). `None` when it cannot be a header.
    pub fn with_header(url: &Url, what: &str, value: &str) -> Option<Self> {
        let credential = Credential::new(url, what, value)?;
        let value = credential.secret().to_owned();
        Auth::of(credential, &value)
    }

    fn of(credential: Credential, value: &str) -> Option<Self> {
        let mut header = reqwest::header::HeaderValue::from_str(value).ok()?;
        header.set_sensitive(true);
        Some(Auth { credential, header })
    }

    /// The same, also for `url`'s origin.
    pub fn also_for(mut self, url: &Url) -> Self {
        self.credential = self.credential.also_for(url);
        self
    }

    /// True only for URLs on the bound origin(s) (scheme, host and port).
    pub fn applies_to(&self, url: &Url) -> bool {
        self.credential.applies_to(url)
    }

    /// Where the binding came from, e.g. `$SKILLPM_TOKEN_skills_acme_dev`.
    pub fn env_var(&self) -> &str {
        &self.credential.from
    }

    pub fn header_value(&self) -> reqwest::header::HeaderValue {
        self.header.clone()
    }
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Auth(${} for {})",
            self.credential.from,
            self.credential.origin()
        )
    }
}

/// The variable a token for `url`'s host is read from without any binding
/// written anywhere (Terraform's `TF_TOKEN_…` rule, docs/network.md):
/// `SKILLPM_TOKEN_`, then the host with every `.` as `_` and every `-` as
/// `__`, then, for a port other than the scheme's default, `_` and the port.
/// `skills.acme.dev` → `SKILLPM_TOKEN_skills_acme_dev`;
/// `my-reg.example:8443` → `SKILLPM_TOKEN_my__reg_example_8443`;
/// `127.0.0.1:8080` → `SKILLPM_TOKEN_127_0_0_1_8080`.
///
/// The mapping is one-to-one, so no variable can reach two hosts: it takes
/// only an IPv4 address or a name of letters, digits, `-` and `.` whose
/// labels begin and end with a letter or digit and whose last label is not
/// all digits. Then a lone `_` is a dot, a run of 2k `_` is k hyphens (a
/// hyphen never touches a dot), and a trailing `_<digits>` is the port (a
/// name's last label is never all digits; an address has four numbers).
/// Any other host (`_` in the name, an IPv6 address, a label that begins or
/// ends with `-`) has no such variable: `Err` says why, and a token for it
/// is bound with `source add … --token-env VAR`.
pub fn host_token_var(url: &Url) -> Result<String, String> {
    let name = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.to_string().replace('.', "_"),
        Some(url::Host::Domain(host)) => mapped_name(host)?,
        Some(url::Host::Ipv6(_)) => {
            return Err("an IPv6 address has no SKILLPM_TOKEN_ variable".into());
        }
        None => return Err("the URL has no host".into()),
    };
    let mut var = format!("SKILLPM_TOKEN_{name}");
    if let Some(port) = url.port() {
        var.push_str(&format!("_{port}"));
    }
    Ok(var)
}

/// A host name as [`host_token_var`] writes it, or why it cannot.
fn mapped_name(host: &str) -> Result<String, String> {
    let why = |rule: &str| Err(format!("`{}` {rule}", crate::escape::printable(host)));
    let labels: Vec<&str> = host.split('.').collect();
    for label in &labels {
        if label.is_empty() {
            return why("has an empty label (`..` or a dot at an end)");
        }
        if let Some(c) = label
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
        {
            return why(&format!(
                "holds `{}`; only a-z, 0-9, `-` and `.` map to a variable name one-to-one",
                crate::escape::printable(&c.to_string())
            ));
        }
        if label.starts_with('-') || label.ends_with('-') {
            return why("has a label that begins or ends with `-`");
        }
    }
    if labels
        .last()
        .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()))
    {
        return why("ends in a label of digits only");
    }
    Ok(host.replace('-', "__").replace('.', "_"))
}

/// The name earlier versions derived for a host [`host_token_var`] refuses
/// (every `.`, `:` and `_` as `_`, `-` as `__`): only to tell a user who set
/// it that it is no longer sent.
fn old_host_token_var(url: &Url) -> Option<String> {
    let host = url.host_str()?.trim_matches(['[', ']']);
    let mut name = String::from("SKILLPM_TOKEN_");
    for c in host.chars() {
        match c {
            '.' | ':' | '_' => name.push('_'),
            '-' => name.push_str("__"),
            c if c.is_ascii_alphanumeric() => name.push(c),
            _ => return None,
        }
    }
    if let Some(port) = url.port() {
        name.push_str(&format!("_{port}"));
    }
    Some(name)
}

/// The user's own token bindings: which variable's token may go to which
/// origin. Kept in `tokens.toml` of skillpm's config folder
/// (`SKILLPM_CONFIG_DIR`, else `$XDG_CONFIG_HOME/skillpm`, else
/// `~/.config/skillpm`), never in a project: a project file can name a
/// variable, but only the user can say where its secret may be sent
/// (docs/network.md).
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserTokens {
    #[serde(default, rename = "token")]
    pub tokens: Vec<TokenBinding>,
}

/// One `[[token]]` of `tokens.toml`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TokenBinding {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// The environment variable holding the token.
    pub env: String,
}

impl UserTokens {
    /// skillpm's config folder.
    pub fn dir() -> Option<std::path::PathBuf> {
        if let Some(dir) = std::env::var_os("SKILLPM_CONFIG_DIR").filter(|d| !d.is_empty()) {
            return Some(dir.into());
        }
        directories::BaseDirs::new().map(|b| b.config_dir().join("skillpm"))
    }

    pub fn path() -> Option<std::path::PathBuf> {
        Self::dir().map(|d| d.join("tokens.toml"))
    }

    /// The bindings; none when the file is missing or unreadable (a broken
    /// file binds nothing, so no secret goes anywhere by mistake).
    pub fn load() -> UserTokens {
        Self::path()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|text| toml::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// The variable bound to `url`'s origin.
    pub fn for_url(&self, url: &Url) -> Option<&str> {
        let origin = url.origin().ascii_serialization();
        (self.tokens.iter())
            .find(|t| t.origin == origin)
            .map(|t| t.env.as_str())
    }

    /// Binds `env` to `url`'s origin (replacing an earlier binding) and
    /// writes the file.
    pub fn bind(url: &Url, env: &str) -> std::io::Result<std::path::PathBuf> {
        let path = Self::path().ok_or_else(|| {
            std::io::Error::other("no config folder (set SKILLPM_CONFIG_DIR or HOME)")
        })?;
        let mut all = Self::load();
        let origin = url.origin().ascii_serialization();
        all.tokens.retain(|t| t.origin != origin);
        all.tokens.push(TokenBinding {
            origin,
            env: env.to_owned(),
        });
        let text = toml::to_string(&all).map_err(std::io::Error::other)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::fs::write_atomic(&path, text.as_bytes())?;
        Ok(path)
    }
}

/// Which variable's token may go to a source at `url`, given the variable
/// its project file names (`token-env`, if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenChoice {
    /// Send the token in `var` (if it is set) to `url`'s origin only.
    Bound { var: String },
    /// The project names `var`, which the user never bound to this origin:
    /// no token, and the caller warns with `reason`.
    Refused { var: String, reason: String },
    /// No token.
    None,
}

/// The one rule of where a token may go (docs/network.md): a variable the
/// user bound to this origin (`source add … --token-env`, kept in
/// [`UserTokens`]), else the variable derived from the host
/// ([`host_token_var`]) when it is set. A project's `token-env` naming any
/// other variable binds nothing.
pub fn choose_token(url: &Url, declared: Option<&str>, user: &UserTokens) -> TokenChoice {
    if let Some(var) = user.for_url(url) {
        return TokenChoice::Bound {
            var: var.to_owned(),
        };
    }
    let origin = url.origin().ascii_serialization();
    let bind = |var: &str| {
        format!(
            "bind it yourself with `skillpm source add <name> {url} --token-env {var}` (kept in your own config)"
        )
    };
    let host_var = host_token_var(url);
    match (declared, host_var) {
        (Some(d), Ok(h)) if d == h => TokenChoice::Bound { var: h },
        (Some(d), host_var) => TokenChoice::Refused {
            var: d.to_owned(),
            reason: format!(
                "skills.toml names token-env ${d} for {origin}, but a project file cannot send your secrets: no token sent. To send it, {}{}",
                bind(d),
                host_var
                    .map(|h| format!(", or put the token in ${h}"))
                    .unwrap_or_default()
            ),
        },
        (None, Ok(h)) if is_set(&h) => TokenChoice::Bound { var: h },
        (None, Ok(_)) => TokenChoice::None,
        (None, Err(why)) => match old_host_token_var(url).filter(|old| is_set(old)) {
            // A variable that once reached this host (and others): refused
            // aloud, so a 401 that follows is not a riddle.
            Some(old) => TokenChoice::Refused {
                reason: format!(
                    "${old} is not sent to {origin}: {why}, so no SKILLPM_TOKEN_ variable names this host alone; {}",
                    bind("VAR")
                ),
                var: old,
            },
            None => TokenChoice::None,
        },
    }
}

/// Whether the environment variable `var` is set to something.
fn is_set(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| !v.is_empty())
}

/// Why a transfer failed, in words a person knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Nothing listens there (or a firewall said no).
    Refused,
    /// DNS has no such name.
    NameNotFound,
    /// No answer (or no byte) within the timeout.
    Timeout,
    /// Bytes came, but slower than the minimum rate.
    TooSlow,
    /// The secure connection could not be made.
    Tls,
    /// The connection broke off mid-answer.
    Broken,
    /// The server answered with an error status.
    Status(u16),
    /// Anything else: the innermost cause's own words.
    Other(String),
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Refused => write!(
                f,
                "the connection was refused: nothing is listening there, or a firewall said no"
            ),
            Why::NameNotFound => write!(f, "the host name was not found (DNS)"),
            Why::Timeout => write!(f, "the server did not answer in time"),
            Why::TooSlow => write!(
                f,
                "the server sent data slower than the minimum rate (SKILLPM_HTTP_MIN_RATE)"
            ),
            Why::Tls => write!(
                f,
                "the secure connection (TLS) failed: the certificate is not trusted, or the server does not speak TLS there"
            ),
            Why::Broken => write!(f, "the connection broke before the answer was complete"),
            Why::Status(code) => {
                let reason = reqwest::StatusCode::from_u16(*code)
                    .ok()
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or("");
                write!(
                    f,
                    "the server answered {}",
                    format!("{code} {reason}").trim_end()
                )
            }
            Why::Other(text) => write!(f, "{text}"),
        }
    }
}

impl Why {
    /// What to do about it, one line.
    pub fn advice(&self) -> &'static str {
        match self {
            Why::Refused | Why::Timeout | Why::Broken => {
                "check the URL and that the server is up; try again later, or use --offline if the cache holds what you need"
            }
            Why::NameNotFound => {
                "check the host name in the URL and your network (DNS, VPN, proxy settings)"
            }
            Why::TooSlow => {
                "try again later; raise SKILLPM_HTTP_TIMEOUT or lower SKILLPM_HTTP_MIN_RATE on a very slow link"
            }
            Why::Tls => {
                "check the URL's host and scheme; a private CA must be in the system's certificate store (or in SSL_CERT_FILE)"
            }
            Why::Status(401 | 403) => {
                "the server wants credentials: set the source's token (see `skillpm source add --help`)"
            }
            Why::Status(_) | Why::Other(_) => {
                "try again later; if it persists, tell the server's owner"
            }
        }
    }

    /// Sorts any error chain (reqwest, hyper, io, gix) by its causes.
    pub fn of(error: &(dyn std::error::Error + 'static)) -> Why {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
        let mut last = error.to_string();
        while let Some(e) = cause {
            if let Some(b) = e.downcast_ref::<BodyError>() {
                return b.why();
            }
            if let Some(s) = e.downcast_ref::<SendError>() {
                return s.why();
            }
            if let Some(r) = e.downcast_ref::<reqwest::Error>() {
                if r.is_timeout() {
                    return Why::Timeout;
                }
                if let Some(status) = r.status() {
                    return Why::Status(status.as_u16());
                }
            }
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                use std::io::ErrorKind as K;
                // `io::Error::source` skips the wrapped error itself.
                if let Some(b) = io.get_ref().and_then(|i| i.downcast_ref::<BodyError>()) {
                    return b.why();
                }
                match io.kind() {
                    K::ConnectionRefused => return Why::Refused,
                    K::TimedOut => return Why::Timeout,
                    K::InvalidData => return Why::Tls,
                    K::ConnectionReset
                    | K::ConnectionAborted
                    | K::BrokenPipe
                    | K::UnexpectedEof => return Why::Broken,
                    _ => {}
                }
                if let Some(inner) = io.get_ref() {
                    // `io::Error::source` skips the wrapped error itself.
                    let text = inner.to_string();
                    if let Some(why) = Why::from_text(&text) {
                        return why;
                    }
                }
            }
            let text = e.to_string();
            if let Some(why) = Why::from_text(&text) {
                return why;
            }
            last = text;
            cause = e.source();
        }
        Why::Other(last)
    }

    /// Library messages that carry the kind only in their words (DNS
    /// errors from getaddrinfo, gix transport errors).
    fn from_text(text: &str) -> Option<Why> {
        let lower = text.to_ascii_lowercase();
        let has = |s: &str| lower.contains(s);
        if has("dns error")
            || has("failed to lookup address")
            || has("name or service not known")
            || has("no address associated")
            || has("nodename nor servname")
            || has("could not resolve host")
            || has("failure in name resolution")
        {
            Some(Why::NameNotFound)
        } else if has("below the minimum of") {
            Some(Why::TooSlow)
        } else if has("no answer within") || has("took longer than skillpm_http_deadline") {
            Some(Why::Timeout)
        } else if has("connection refused") {
            Some(Why::Refused)
        } else if has("timed out") {
            Some(Why::Timeout)
        } else if has("certificate") || has("tls handshake") || has("invalidcertificate") {
            Some(Why::Tls)
        } else {
            None
        }
    }
}

/// An error and its causes on one line, each said once (for `--verbose`).
pub fn chain_text(error: &dyn std::error::Error) -> String {
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

/// The library's own account of a failure, kept as the `source` of a
/// readable error so `--verbose` can show it and nothing else does.
#[derive(Debug, Clone)]
pub struct Detail(pub String);

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Detail {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_token_variables_follow_one_rule() {
        let var = |u: &str| host_token_var(&Url::parse(u).unwrap()).ok();
        for (url, expected) in [
            (
                "https://skills.acme.dev/x",
                Some("SKILLPM_TOKEN_skills_acme_dev"),
            ),
            (
                "https://my-reg.example:8443/",
                Some("SKILLPM_TOKEN_my__reg_example_8443"),
            ),
            (
                "https://my-reg.example:443/",
                Some("SKILLPM_TOKEN_my__reg_example"),
            ),
            (
                "http://127.0.0.1:8080/",
                Some("SKILLPM_TOKEN_127_0_0_1_8080"),
            ),
            (
                "https://xn--bcher-kva.example/",
                Some("SKILLPM_TOKEN_xn____bcher__kva_example"),
            ),
            ("file:///tmp/x", None),
            // The pair that collided (issue 34): `_` in a name has no variable.
            ("https://a-b.example/", Some("SKILLPM_TOKEN_a__b_example")),
            ("https://a._b.example/", None),
            ("https://a_b.example/", None),
            ("https://a.-b.example/", None),
            ("https://a-.b.example/", None),
            ("https://[::1]:8080/", None),
        ] {
            assert_eq!(var(url).as_deref(), expected, "{url}");
        }
    }

    /// Every host of up to six characters from the letters that matter,
    /// with and without a port: no two hosts share a variable.
    #[test]
    fn no_two_hosts_share_a_variable() {
        let alphabet = ['a', '1', '-', '.', '_'];
        let mut hosts = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..6 {
            hosts = (hosts.iter())
                .flat_map(|h| alphabet.iter().map(move |c| format!("{h}{c}")))
                .collect();
            all.extend(hosts.iter().cloned());
        }
        let mut seen: std::collections::HashMap<String, url::Origin> = Default::default();
        for host in &all {
            for port in ["", ":1", ":80", ":11"] {
                let Ok(url) = Url::parse(&format!("http://{host}{port}/")) else {
                    continue;
                };
                let Ok(var) = host_token_var(&url) else {
                    continue;
                };
                let key = url::Origin::Tuple(
                    String::new(),
                    url.host().unwrap().to_owned(),
                    url.port_or_known_default().unwrap(),
                );
                if let Some(earlier) = seen.insert(var.clone(), key.clone()) {
                    assert_eq!(earlier, key, "{var} names two hosts");
                }
            }
        }
        assert!(seen.len() > 1000, "{}", seen.len());
    }

    #[test]
    fn a_project_file_binds_no_token_but_the_user_and_the_host_variable_do() {
        let url = Url::parse("https://skills.acme.dev/").unwrap();
        let none = UserTokens::default();
        // A committed skills.toml naming any secret: refused, with advice.
        match choose_token(&url, Some("AWS_SECRET_ACCESS_KEY"), &none) {
            TokenChoice::Refused { var, reason } => {
                assert_eq!(var, "AWS_SECRET_ACCESS_KEY");
                assert!(reason.contains("SKILLPM_TOKEN_skills_acme_dev"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        // Naming the host's own variable is the same binding as rule 2.
        assert_eq!(
            choose_token(&url, Some("SKILLPM_TOKEN_skills_acme_dev"), &none),
            TokenChoice::Bound {
                var: "SKILLPM_TOKEN_skills_acme_dev".into()
            }
        );
        // The user's binding for this origin wins; for another origin it
        // binds nothing here.
        let user = UserTokens {
            tokens: vec![TokenBinding {
                origin: "https://skills.acme.dev".into(),
                env: "ACME".into(),
            }],
        };
        assert_eq!(
            choose_token(&url, Some("OTHER"), &user),
            TokenChoice::Bound { var: "ACME".into() }
        );
        let elsewhere = Url::parse("https://evil.example/").unwrap();
        assert!(matches!(
            choose_token(&elsewhere, Some("ACME"), &user),
            TokenChoice::Refused { .. }
        ));
    }

    #[test]
    fn failures_are_sorted_into_kinds_people_know() {
        let io = |kind| std::io::Error::new(kind, "x");
        assert_eq!(
            Why::of(&io(std::io::ErrorKind::ConnectionRefused)),
            Why::Refused
        );
        assert_eq!(Why::of(&io(std::io::ErrorKind::TimedOut)), Why::Timeout);
        assert_eq!(
            Why::of(&io(std::io::ErrorKind::ConnectionReset)),
            Why::Broken
        );
        let dns = std::io::Error::other(
            "failed to lookup address information: Name or service not known",
        );
        assert_eq!(Why::of(&dns), Why::NameNotFound);
        assert_eq!(
            Why::Status(503).to_string(),
            "the server answered 503 Service Unavailable"
        );
        assert!(matches!(Why::of(&std::io::Error::other("odd")), Why::Other(t) if t == "odd"));
    }

    #[test]
    fn credentials_in_a_url_are_refused_and_never_shown() {
        for bad in [
            "http://alice:S3CRET@h.example/",
            "https://S3CRET@h.example/x.json",
            "git+https://alice:S3CRET@h.example/r.git",
            "mcp+https://S3CRET@h.example/mcp",
            "oci://alice:S3CRET@h.example/ns",
            "ssh://git:S3CRET@h.example/r",
            "http://alice:S3CRET@/x",
        ] {
            let e = refuse_credentials(bad).unwrap_err();
            let text = e.to_string();
            assert!(!text.contains("S3CRET"), "{text}");
            assert!(!text.contains("alice"), "{text}");
        }
        let e = refuse_credentials("https://alice:S3CRET@h.example/").unwrap_err();
        assert!(e.to_string().contains("--token-env"), "{e}");
        assert!(e.to_string().contains("SKILLPM_TOKEN_h_example"), "{e}");
        for good in [
            "https://h.example/a@b",
            "https://h.example/?q=a@b",
            "ssh://git@h.example/r",
            "git@github.com:o/r.git",
            "./folder@2",
            "oci://h.example/ns/x@sha256:00",
        ] {
            assert!(refuse_credentials(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn plain_http_only_for_loopback() {
        let check = |u: &str, allow| check_plain_http(&Url::parse(u).unwrap(), allow).is_ok();
        assert!(check("http://127.0.0.1:9/x", false));
        assert!(check("http://localhost/x", false));
        assert!(check("http://[::1]/x", false));
        assert!(check("https://skills.acme.dev/x", false));
        assert!(!check("http://skills.acme.dev/x", false));
        assert!(!check("http://10.0.0.1/x", false));
        assert!(check("http://skills.acme.dev/x", true));
    }

    #[test]
    fn https_never_redirects_down_to_http_or_files() {
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(redirect_allowed(&u("https://a.example/i"), &u("http://a.example/i")).is_err());
        assert!(redirect_allowed(&u("https://a.example/i"), &u("file:///etc/passwd")).is_err());
        assert!(redirect_allowed(&u("http://a.example/i"), &u("file:///etc/passwd")).is_err());
        assert!(redirect_allowed(&u("http://a.example/i"), &u("https://a.example/i")).is_ok());
        assert!(redirect_allowed(&u("https://a.example/i"), &u("https://cdn.example/x")).is_ok());
    }
}
