//! An MCP server as a skill source (`mcp+https://host/path`): the client
//! half of the MCP Skills extension (`io.modelcontextprotocol/skills`).
//!
//! Over Streamable HTTP (JSON-RPC in POST bodies, answered as JSON or as an
//! SSE stream) it lists the server's skills with `skills/list` and reads
//! every file of a chosen skill with `resources/read`, then checks what
//! came back against the entry before anything reaches the store:
//! - each file's size and `sha256:` digest (exit 3 on a mismatch);
//! - the entry is complete: `resources: "dynamic"` is refused (no digest
//!   can pin it, exit 3), and a read answering with any URI but the one
//!   asked for is an unlisted file (exit 3);
//! - the SKILL.md frontmatter equals the listed frontmatter (exit 3);
//! - the URI ends in the frontmatter name, and every file URI is a plain
//!   path under the skill's root, no `.`/`..`/empty segments (exit 5).
//!
//! Only a remote server is ever contacted: skillpm never starts a local
//! process as a source. `mcp+http://` (no TLS) is allowed only for loopback
//! hosts (127.0.0.0/8, ::1, localhost), for local testing.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use url::Url;

use crate::digest::{Digest, TreeHasher};
use crate::error::{Classify, Exit};

/// The URL prefixes of MCP sources.
pub const SCHEMES: [&str; 2] = ["mcp+https://", "mcp+http://"];

/// The protocol revision asked for at `initialize` (rmcp and the reference
/// SDKs answer it; 2026-07-28 servers still accept it).
const PROTOCOL_VERSION: &str = "2025-11-25";

/// Cap on one JSON-RPC response body.
const MAX_RESPONSE_BYTES: u64 = 32 * 1024 * 1024;
/// Cap on the pages of one listing (a server that never stops paging).
const MAX_PAGES: usize = 1000;
/// The extension's per-skill limits (hosts must accept at least these).
pub const MAX_FILES: usize = 512;
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum McpSourceError {
    #[error("`{text}` is not an MCP source: {reason}")]
    BadUrl { text: String, reason: String },
    #[error("MCP server {url} is offline-only here: `--offline` opens no connection")]
    Offline { url: String },
    #[error("cannot reach MCP server {url}: {detail}")]
    Network { url: String, detail: String },
    #[error("MCP server {url} answered {method} with an error: {detail}")]
    Protocol {
        url: String,
        method: String,
        detail: String,
    },
    #[error(
        "MCP server {url} does not declare the io.modelcontextprotocol/skills extension; it serves no skills skillpm can install"
    )]
    NoExtension { url: String },
    #[error("{uri} from {url}: {detail}")]
    Integrity {
        url: String,
        uri: String,
        detail: String,
    },
    #[error("{uri} from {url}: {detail}")]
    Unsafe {
        url: String,
        uri: String,
        detail: String,
    },
}

impl Classify for McpSourceError {
    fn exit(&self) -> Exit {
        match self {
            McpSourceError::BadUrl { .. } => Exit::Usage,
            McpSourceError::Offline { .. } => Exit::Locked,
            McpSourceError::Network { .. }
            | McpSourceError::Protocol { .. }
            | McpSourceError::NoExtension { .. } => Exit::Network,
            McpSourceError::Integrity { .. } => Exit::Integrity,
            McpSourceError::Unsafe { .. } => Exit::Unsafe,
        }
    }
}
crate::classified!(McpSourceError);

/// Whether `text` is written as an MCP source.
pub fn is_mcp_form(text: &str) -> bool {
    SCHEMES.iter().any(|s| text.starts_with(s))
}

/// The HTTP endpoint of an `mcp+https://` (or loopback `mcp+http://`) URL.
pub fn endpoint(text: &str) -> Result<Url, McpSourceError> {
    let bad = |reason: &str| McpSourceError::BadUrl {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    // One rule, before anything could echo the text (docs/network.md).
    crate::net::refuse_credentials(text).map_err(|e| McpSourceError::BadUrl {
        text: e.shown.clone(),
        reason: e.to_string(),
    })?;
    let Some(http) = text.strip_prefix("mcp+") else {
        return Err(bad("it must start with mcp+https://"));
    };
    let url = Url::parse(http).map_err(|e| bad(&format!("not a valid URL: {e}")))?;
    if url.host().is_none() {
        return Err(bad("the URL has no host"));
    }
    let loopback = crate::net::is_loopback(&url);
    match url.scheme() {
        "https" => Ok(url),
        "http" if loopback => Ok(url),
        "http" => Err(bad(
            "mcp+http:// is only for a server on this machine (127.0.0.1, ::1, localhost); use mcp+https://",
        )),
        _ => Err(bad(
            "only mcp+https:// (and mcp+http:// on loopback) are supported",
        )),
    }
}

/// One skill as the server lists it, checked for shape (not yet content).
#[derive(Debug, Clone)]
pub struct ServerSkill {
    /// The SKILL.md URI, the skill's identity on this server.
    pub uri: String,
    pub name: String,
    pub description: String,
    pub frontmatter: Map<String, Value>,
    /// Relative path, URI, digest, size; in path order.
    pub files: Vec<ServerFile>,
}

#[derive(Debug, Clone)]
pub struct ServerFile {
    pub path: String,
    pub uri: String,
    pub digest: Digest,
    pub size: u64,
}

impl ServerSkill {
    /// The tree digest the files will hash to (docs/design.md#digests), known from the
    /// manifest alone, so `outdated` needs no download.
    pub fn tree(&self) -> Digest {
        let mut h = TreeHasher::new();
        for f in &self.files {
            h.add(f.path.clone(), f.digest);
        }
        h.finish()
    }
}

/// A connected session with one server.
pub struct McpClient {
    url: Url,
    /// The one client (`crate::net::Http`).
    http: crate::net::Http,
    /// The bearer token, bound to the server's origin.
    auth: Option<crate::net::Auth>,
    session: Option<String>,
    next_id: u64,
    /// The server declared `directoryRead`: its folders can be listed.
    directory_read: bool,
}

impl McpClient {
    /// Connects (`initialize`, `notifications/initialized`) and checks that
    /// the server declares the Skills extension. `bearer` is sent to this
    /// origin only (redirects are not followed).
    pub fn connect(
        url: &Url,
        bearer: Option<String>,
        offline: bool,
    ) -> Result<McpClient, McpSourceError> {
        if offline {
            return Err(McpSourceError::Offline {
                url: url.to_string(),
            });
        }
        let http = crate::net::Http::shared();
        let auth = bearer
            .as_deref()
            .and_then(|t| crate::net::Auth::bearer(url, "the source's token-env", t));
        let mut client = McpClient {
            url: url.clone(),
            http,
            auth,
            session: None,
            next_id: 1,
            directory_read: false,
        };
        let init = client.call(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
                "clientInfo": {"name": "skillpm", "version": env!("CARGO_PKG_VERSION")}
            }),
        )?;
        let settings = &init["capabilities"]["extensions"]["io.modelcontextprotocol/skills"];
        if settings.is_null() {
            return Err(McpSourceError::NoExtension {
                url: url.to_string(),
            });
        }
        client.directory_read = settings["directoryRead"] == json!(true);
        client.notify("notifications/initialized")?;
        Ok(client)
    }

    fn post(&self, body: &Value) -> Result<crate::net::Answer, McpSourceError> {
        let failed = |e: crate::net::SendError| {
            let why = e.why();
            McpSourceError::Network {
                url: self.url.to_string(),
                detail: format!("{why}\n  {}", why.advice()),
            }
        };
        let mut request = crate::net::Request::new(reqwest::Method::POST, self.url.clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .and_then(|r| {
                r.header(
                    reqwest::header::ACCEPT,
                    "application/json, text/event-stream",
                )
            })
            .map_err(failed)?;
        if let Some(s) = &self.session {
            request = request
                .header(SESSION_ID.clone(), s)
                .and_then(|r| r.header(PROTOCOL_HEADER.clone(), PROTOCOL_VERSION))
                .map_err(failed)?;
        }
        request.body = Some(body.to_string().into());
        request.auth = self.auth.clone();
        // Redirects are not followed: the token stays with this server.
        request.follow_redirects = false;
        self.http.send_blocking(request, None).map_err(failed)
    }

    fn notify(&mut self, method: &str) -> Result<(), McpSourceError> {
        let resp = self.post(&json!({"jsonrpc": "2.0", "method": method}))?;
        if !resp.status.is_success() {
            return Err(self.protocol(method, format!("HTTP {}", resp.status)));
        }
        Ok(())
    }

    fn protocol(&self, method: &str, detail: impl Into<String>) -> McpSourceError {
        McpSourceError::Protocol {
            url: self.url.to_string(),
            method: method.to_owned(),
            detail: detail.into(),
        }
    }

    /// One request; its `result`, or the JSON-RPC error as a sentence.
    fn call(&mut self, method: &str, params: Value) -> Result<Value, McpSourceError> {
        let id = self.next_id;
        self.next_id += 1;
        let resp =
            self.post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let status = resp.status;
        if !status.is_success() {
            return Err(self.protocol(method, format!("HTTP {status}")));
        }
        if let Some(s) = resp.headers.get("mcp-session-id")
            && let Ok(s) = s.to_str()
        {
            self.session = Some(s.to_owned());
        }
        let is_sse = resp
            .headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let body = read_capped(resp, MAX_RESPONSE_BYTES).map_err(|e| self.protocol(method, e))?;
        let messages: Vec<Value> = if is_sse {
            sse_messages(&body)
        } else {
            serde_json::from_slice(&body)
                .map(|v| vec![v])
                .map_err(|e| self.protocol(method, format!("not JSON: {e}")))?
        };
        let Some(reply) = messages.into_iter().find(|m| m["id"] == json!(id)) else {
            return Err(self.protocol(method, "no response with the request's id"));
        };
        if let Some(err) = reply.get("error") {
            let message = err["message"].as_str().unwrap_or("(no message)");
            return Err(self.protocol(
                method,
                format!(
                    "{} (code {})",
                    crate::skill::printable(message),
                    err["code"]
                ),
            ));
        }
        match reply.get("result") {
            Some(r) if r.is_object() => Ok(r.clone()),
            _ => Err(self.protocol(method, "the response has no result object")),
        }
    }

    /// Every skill of the listing, following cursors. Entries that break
    /// the extension's rules fail here, naming the entry.
    pub fn list_skills(&mut self) -> Result<Vec<ServerSkill>, McpSourceError> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashMap::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let page = self.call("skills/list", params)?;
            let Some(skills) = page["skills"].as_array() else {
                return Err(self.protocol("skills/list", "the result has no `skills` array"));
            };
            for entry in skills {
                let skill = self.check_entry(entry)?;
                // One name is one skill: a second URI for it is refused,
                // never settled by which came first (docs/sources.md#mcp).
                if let Some(first) = seen.insert(skill.name.clone(), skill.uri.clone()) {
                    return Err(self.integrity(
                        &skill.uri,
                        format!(
                            "the server lists skill `{}` twice, also at {}; skillpm will not pick one",
                            skill.name,
                            crate::skill::printable(&first)
                        ),
                    ));
                }
                out.push(skill);
            }
            match page["nextCursor"].as_str() {
                Some(c) if Some(c) != cursor.as_deref() => cursor = Some(c.to_owned()),
                Some(_) => {
                    return Err(self.protocol("skills/list", "the cursor did not advance"));
                }
                None => return Ok(out),
            }
        }
        Err(self.protocol("skills/list", format!("more than {MAX_PAGES} pages")))
    }

    fn integrity(&self, uri: &str, detail: impl Into<String>) -> McpSourceError {
        McpSourceError::Integrity {
            url: self.url.to_string(),
            uri: crate::skill::printable(uri),
            detail: detail.into(),
        }
    }

    fn unsafe_(&self, uri: &str, detail: impl Into<String>) -> McpSourceError {
        McpSourceError::Unsafe {
            url: self.url.to_string(),
            uri: crate::skill::printable(uri),
            detail: detail.into(),
        }
    }

    /// The shape rules of one entry: a SKILL.md URI whose last segment is
    /// the frontmatter name, a complete manifest (not "dynamic") of files
    /// under the skill's root, each digest well-formed, within the limits.
    fn check_entry(&self, entry: &Value) -> Result<ServerSkill, McpSourceError> {
        let uri = entry["uri"].as_str().unwrap_or_default().to_owned();
        let Some(root) = uri.strip_suffix("/SKILL.md") else {
            return Err(self.unsafe_(&uri, "a skill's URI must end in /SKILL.md"));
        };
        if uri.contains(['?', '#']) {
            return Err(self.unsafe_(&uri, "a skill's URI has no query or fragment"));
        }
        let Some(frontmatter) = entry["frontmatter"].as_object().cloned() else {
            return Err(self.unsafe_(&uri, "the entry has no frontmatter object"));
        };
        let text = |key: &str| {
            frontmatter
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let (name, description) = (text("name"), text("description"));
        self.check_name(&uri, root, &name)?;
        let files = self.check_manifest(&uri, root, &entry["resources"])?;
        Ok(ServerSkill {
            uri,
            name,
            description,
            frontmatter,
            files,
        })
    }

    /// The frontmatter name is a skill name, and the one the URI's last
    /// segment gives (the name is the skill's identity in the lock).
    fn check_name(&self, uri: &str, root: &str, name: &str) -> Result<(), McpSourceError> {
        if !crate::skill::is_valid_name(name) {
            return Err(self.unsafe_(
                uri,
                format!("frontmatter name {}", crate::skill::not_a_skill_name(name)),
            ));
        }
        let last = root.rsplit('/').next().unwrap_or_default();
        if last != name {
            return Err(self.unsafe_(
                uri,
                format!("the URI names skill `{last}` but its frontmatter says `{name}`; the last path segment must be the skill's name"),
            ));
        }
        Ok(())
    }

    /// The `resources` manifest: pinned (not "dynamic"), each file a plain
    /// path under `root` listed once, within the file and byte limits, and
    /// SKILL.md among them. Sorted by path.
    fn check_manifest(
        &self,
        uri: &str,
        root: &str,
        resources: &Value,
    ) -> Result<Vec<ServerFile>, McpSourceError> {
        let files = match resources {
            Value::String(s) if s == "dynamic" => {
                return Err(self.integrity(
                    uri,
                    "the server publishes no digests for this skill (`resources: \"dynamic\"`); skillpm installs only content it can pin",
                ));
            }
            Value::Array(files) => files,
            _ => {
                return Err(self.integrity(uri, "the entry has no `resources` manifest"));
            }
        };
        if files.len() > MAX_FILES {
            return Err(self.unsafe_(
                uri,
                format!("lists {} files; the limit is {MAX_FILES}", files.len()),
            ));
        }
        let mut listed = BTreeMap::new();
        let mut total = 0u64;
        for f in files {
            let file = self.listed_file(root, f)?;
            total = total.saturating_add(file.size);
            if listed.insert(file.path.clone(), file).is_some() {
                let furi = f["uri"].as_str().unwrap_or_default();
                return Err(self.unsafe_(furi, "listed twice"));
            }
        }
        if total > MAX_SKILL_BYTES {
            return Err(self.unsafe_(
                uri,
                format!("its files add up to {total} bytes; the limit is {MAX_SKILL_BYTES}"),
            ));
        }
        if !listed.contains_key("SKILL.md") {
            return Err(self.integrity(uri, "the manifest does not list SKILL.md itself"));
        }
        Ok(listed.into_values().collect())
    }

    /// One manifest file: a URI that is a plain path inside `root`, a
    /// well-formed sha256 digest and a size.
    fn listed_file(&self, root: &str, f: &Value) -> Result<ServerFile, McpSourceError> {
        let furi = f["uri"].as_str().unwrap_or_default();
        let Some(path) = furi
            .strip_prefix(&format!("{root}/"))
            .and_then(decode_relative)
        else {
            return Err(self.unsafe_(
                furi,
                format!("this file is not a plain path inside {root}; refused"),
            ));
        };
        let digest = f["digest"]
            .as_str()
            .filter(|d| rmcp::model::is_sha256_digest(d))
            .and_then(|d| d.parse::<Digest>().ok())
            .ok_or_else(|| {
                self.integrity(furi, "the manifest digest is not sha256:<64 lowercase hex>")
            })?;
        let size = f["size"]
            .as_u64()
            .ok_or_else(|| self.integrity(furi, "the manifest gives no size"))?;
        Ok(ServerFile {
            path,
            uri: furi.to_owned(),
            digest,
            size,
        })
    }

    /// When the server lists directories, walks the skill's folder: a file
    /// there that the manifest does not list means the manifest is not the
    /// complete skill the extension requires (exit 3), so what would be
    /// approved is not all the skill holds.
    fn check_complete(&mut self, skill: &ServerSkill) -> Result<(), McpSourceError> {
        if !self.directory_read {
            return Ok(());
        }
        let root = skill.uri.trim_end_matches("/SKILL.md").to_owned();
        let listed: std::collections::BTreeSet<&str> =
            skill.files.iter().map(|f| f.uri.as_str()).collect();
        let mut pending = vec![root.clone()];
        let mut seen = 0usize;
        while let Some(dir) = pending.pop() {
            let result = self.call("resources/directory/read", json!({"uri": dir}))?;
            for child in result["resources"].as_array().into_iter().flatten() {
                seen += 1;
                if seen > MAX_FILES * 4 {
                    return Err(self.unsafe_(&skill.uri, "its folders list too many entries"));
                }
                let uri = child["uri"].as_str().unwrap_or_default();
                if !uri.starts_with(&format!("{root}/")) {
                    return Err(self.unsafe_(
                        uri,
                        format!("listed in a folder of {root} but not inside it"),
                    ));
                }
                if child["mimeType"] == json!("inode/directory") {
                    pending.push(uri.to_owned());
                } else if !listed.contains(uri) {
                    return Err(self.integrity(
                        uri,
                        format!("the server holds this file in the skill but the manifest of {} does not list it", skill.uri),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Reads every file of `skill` and verifies it against the entry; the
    /// (path, bytes) pairs in path order.
    pub fn fetch_skill(
        &mut self,
        skill: &ServerSkill,
    ) -> Result<Vec<(String, Vec<u8>)>, McpSourceError> {
        self.check_complete(skill)?;
        let mut out = Vec::with_capacity(skill.files.len());
        for f in &skill.files {
            let result = self.call("resources/read", json!({"uri": f.uri}))?;
            let contents = result["contents"].as_array().cloned().unwrap_or_default();
            if let Some(other) = contents.iter().find(|c| c["uri"] != json!(f.uri)) {
                return Err(self.integrity(
                    other["uri"].as_str().unwrap_or("(no uri)"),
                    format!(
                        "the server sent a file the manifest of {} does not list",
                        skill.uri
                    ),
                ));
            }
            let [content] = contents.as_slice() else {
                return Err(self.integrity(
                    &f.uri,
                    format!("expected one content block, got {}", contents.len()),
                ));
            };
            let bytes = if let Some(text) = content["text"].as_str() {
                text.as_bytes().to_vec()
            } else if let Some(blob) = content["blob"].as_str() {
                use base64::Engine as _;
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .map_err(|e| self.integrity(&f.uri, format!("the blob is not base64: {e}")))?
            } else {
                return Err(self.integrity(&f.uri, "the content has neither text nor blob"));
            };
            if bytes.len() as u64 != f.size {
                return Err(self.integrity(
                    &f.uri,
                    format!(
                        "{} bytes arrived, the manifest says {}",
                        bytes.len(),
                        f.size
                    ),
                ));
            }
            let actual = Digest::of_bytes(&bytes);
            if actual != f.digest {
                return Err(self.integrity(
                    &f.uri,
                    format!("content hashes to {actual}, the manifest says {}", f.digest),
                ));
            }
            out.push((f.path.clone(), bytes));
        }
        let md = out
            .iter()
            .find(|(p, _)| p == "SKILL.md")
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let parsed = crate::skill::parse_skill_md(&md)
            .map_err(|e| self.unsafe_(&skill.uri, format!("SKILL.md: {e}")))?;
        if parsed.frontmatter != skill.frontmatter {
            return Err(self.integrity(
                &skill.uri,
                "the SKILL.md frontmatter differs from the frontmatter in the listing",
            ));
        }
        Ok(out)
    }
}

/// A relative file path from the URI text after the skill's root: each
/// segment percent-decoded; `None` for empty, `.`, `..`, `\`, control
/// characters, a query or fragment.
pub fn decode_relative(text: &str) -> Option<String> {
    if text.contains(['?', '#']) {
        return None;
    }
    let parts = text.split('/').map(|raw| {
        let part = crate::names::percent_decode(raw)?;
        let bad = part.is_empty()
            || part == "."
            || part == ".."
            || part.contains(['/', '\\'])
            || part.chars().any(char::is_control);
        (!bad).then_some(part)
    });
    Some(parts.collect::<Option<Vec<_>>>()?.join("/"))
}

fn read_capped(mut resp: crate::net::Answer, max: u64) -> Result<Vec<u8>, String> {
    resp.read_capped(max).map_err(|e| {
        if e.kind() == std::io::ErrorKind::Other && e.to_string().contains("larger than") {
            e.to_string()
        } else {
            format!("reading the response failed: {e}")
        }
    })
}

/// The MCP session headers (streamable HTTP transport).
static SESSION_ID: reqwest::header::HeaderName =
    reqwest::header::HeaderName::from_static("mcp-session-id");
static PROTOCOL_HEADER: reqwest::header::HeaderName =
    reqwest::header::HeaderName::from_static("mcp-protocol-version");

/// The JSON messages of an SSE body (`data:` lines, events split by a blank
/// line).
fn sse_messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    let mut data = String::new();
    for line in text.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if !data.is_empty()
                && let Ok(v) = serde_json::from_str(&data)
            {
                out.push(v);
            }
            data.clear();
        } else if let Some(d) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(d.strip_prefix(' ').unwrap_or(d));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_allow_plain_http_on_loopback_only() {
        assert!(endpoint("mcp+https://skills.example/mcp").is_ok());
        assert!(endpoint("mcp+http://127.0.0.1:8080/mcp").is_ok());
        assert!(endpoint("mcp+http://[::1]:8080/mcp").is_ok());
        assert!(endpoint("mcp+http://localhost/mcp").is_ok());
        for bad in [
            "mcp+http://skills.example/mcp",
            "mcp+http://10.0.0.1/mcp",
            "mcp+file:///tmp/x",
            "mcp+https://user:pw@skills.example/",
            "mcp+stdio://npx",
            "https://skills.example/",
        ] {
            assert!(endpoint(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn relative_paths_refuse_escapes() {
        assert_eq!(decode_relative("a/b%20c.md").as_deref(), Some("a/b c.md"));
        for bad in [
            "../x",
            "a/%2e%2e/x",
            "a//b",
            "a/./b",
            "a%2Fb",
            "x?y",
            "",
            "a\\b",
        ] {
            assert_eq!(decode_relative(bad), None, "{bad}");
        }
    }

    #[test]
    fn sse_bodies_yield_their_messages() {
        let body = b"event: message\ndata: {\"id\":1,\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n";
        let m = sse_messages(body);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0]["id"], 2);
    }
}
