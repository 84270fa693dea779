//! The MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) as
//! skillpm serves it: every skill is a tree of `skill://<name>/<path>`
//! resources, listed by `skills/list` with a complete manifest (every file
//! with its `sha256:` digest and size) and the SKILL.md frontmatter as JSON.
//!
//! This module is the plain logic (URIs, entries, pages, directory
//! listings, resource contents); [`super::server`] wires it to the protocol.
//! Skill paths are a single segment, the skill's name, which is also the
//! name of its folder in every skill root, so a URI names exactly one skill.

use std::collections::BTreeSet;

use base64::Engine as _;
use rmcp::model::{
    DIRECTORY_MIME_TYPE, Resource, ResourceContents, Skill, SkillFrontmatter, SkillResource,
    SkillResources,
};
use serde_json::Value;

use crate::catalog::CatalogSkill;
use crate::digest::TreeFile;
use crate::skill::SKILL_MD;
use crate::sources::mcp::client::decode_relative;

/// The URI scheme of skill resources.
pub const SCHEME: &str = "skill://";

/// Entries a `skills/list` page holds unless `--page-size` says otherwise.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// How long a host may treat a listing or a file as fresh: skills change
/// only when someone installs, updates or disables one, and the server
/// says so with `notifications/resources/list_changed`.
pub const TTL_MS: u64 = 60_000;

/// Bytes one skill may hold to be served (the store's own default limit
/// for a skill); the extension asks hosts to accept 16 MiB.
pub const MAX_SKILL_BYTES: u64 = 64 * 1024 * 1024;

/// `skill://<name>/SKILL.md`.
pub fn skill_uri(name: &str) -> String {
    file_uri(name, SKILL_MD)
}

/// `skill://<name>/<rel>`, each segment of `rel` percent-encoded where it
/// is not a plain URI character.
pub fn file_uri(name: &str, rel: &str) -> String {
    let mut uri = format!("{SCHEME}{name}");
    for segment in rel.split('/').filter(|s| !s.is_empty()) {
        uri.push('/');
        uri.push_str(&encode_segment(segment));
    }
    uri
}

fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        let plain = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@".contains(&b);
        if plain {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `skill://` URI taken apart: the skill's name and the path below its
/// root (`""` for the root itself), decoded. `None` for anything that is
/// not a plain path under one skill (see [`decode_relative`]): another
/// scheme, a trailing slash. Nothing is resolved, so no spelling reaches a file
/// outside the skill.
pub fn parse_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (name, rel) = match rest.split_once('/') {
        Some((name, rel)) => (name, decode_relative(rel)?),
        None => (rest, String::new()),
    };
    let plain = !rest.contains(['?', '#']) && crate::skill::is_valid_name(name);
    plain.then(|| (name.to_owned(), rel))
}

/// The `skills/list` / `skills/get` entry of a served skill: its SKILL.md
/// URI, the frontmatter exactly as written (as JSON), and every file.
pub fn entry(skill: &CatalogSkill, files: &[TreeFile]) -> Option<Skill> {
    let md = skill.skill.as_ref()?;
    let mut extra = md.frontmatter.clone();
    let mut take = |key, parsed: &String| match extra.remove(key) {
        Some(Value::String(s)) => s,
        _ => parsed.clone(),
    };
    let (name, description) = (take("name", &md.name), take("description", &md.description));
    let mut frontmatter = SkillFrontmatter::new(name, description);
    frontmatter.extra = extra;
    let resources = files
        .iter()
        .map(|f| SkillResource::new(file_uri(&skill.name, &f.path), f.digest.to_string(), f.size))
        .collect();
    Some(Skill::new(
        skill_uri(&skill.name),
        frontmatter,
        SkillResources::Files(resources),
    ))
}

/// One page of `entries` (sorted by URI) starting after `cursor`: whole
/// entries only, and the cursor for the next page. A cursor is the URI of
/// the last entry sent, so a page boundary survives skills being added or
/// removed between calls. An unknown cursor is an error sentence.
pub fn page<T>(
    entries: Vec<T>,
    uri_of: impl Fn(&T) -> &str,
    cursor: Option<&str>,
    size: usize,
) -> Result<(Vec<T>, Option<String>), String> {
    let size = size.max(1);
    let start = match cursor {
        None => 0,
        Some(c) => {
            if parse_uri(c).is_none() {
                return Err(format!(
                    "{c:?} is not a cursor this server gave out; start again without one"
                ));
            }
            entries.iter().take_while(|e| uri_of(e) <= c).count()
        }
    };
    let total = entries.len();
    let page: Vec<T> = entries.into_iter().skip(start).take(size).collect();
    let next = (start + page.len() < total)
        .then(|| page.last().map(|e| uri_of(e).to_owned()))
        .flatten();
    Ok((page, next))
}

/// The direct children of directory `dir` (`""` is the skill's root) of
/// skill `name` whose files are `paths`: files and sub-directories, in
/// name order. `None` when `dir` is not a directory of the skill.
pub fn directory_children<'a>(
    name: &str,
    paths: impl Iterator<Item = (&'a str, u64)>,
    dir: &str,
) -> Option<Vec<Resource>> {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let mut files = Vec::new();
    let mut dirs = BTreeSet::new();
    let mut found = dir.is_empty();
    for (path, size) in paths {
        let Some(rest) = path.strip_prefix(&prefix) else {
            continue;
        };
        found = true;
        match rest.split_once('/') {
            Some((sub, _)) => {
                dirs.insert(sub.to_owned());
            }
            None => files.push((rest.to_owned(), size)),
        }
    }
    if !found {
        return None;
    }
    let join = |leaf: &str| format!("{prefix}{leaf}");
    let mut out: Vec<Resource> = dirs
        .into_iter()
        .map(|d| Resource::new(file_uri(name, &join(&d)), d).with_mime_type(DIRECTORY_MIME_TYPE))
        .collect();
    out.extend(files.into_iter().map(|(f, size)| {
        let rel = join(&f);
        Resource::new(file_uri(name, &rel), f)
            .with_mime_type(mime_type(&rel))
            .with_size(size)
    }));
    out.sort_by(|a, b| a.uri.cmp(&b.uri));
    Some(out)
}

/// A MIME type from the file name: Markdown, a few common text kinds,
/// otherwise `text/plain` (the bytes decide text or blob, not this).
pub fn mime_type(rel: &str) -> &'static str {
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("py") => "text/x-python",
        Some("sh") => "text/x-shellscript",
        Some("html" | "htm") => "text/html",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("pdf") => "application/pdf",
        Some("zip") => "application/zip",
        _ => "text/plain",
    }
}

/// The exact bytes of a file as resource contents: `text` when they are
/// UTF-8 (the JSON string carries them unchanged), otherwise a base64
/// `blob`.
pub fn contents(uri: &str, rel: &str, bytes: Vec<u8>) -> ResourceContents {
    match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::text(text, uri).with_mime_type(mime_type(rel)),
        Err(e) => {
            let blob = base64::engine::general_purpose::STANDARD.encode(e.into_bytes());
            let mime = match mime_type(rel) {
                m if m.starts_with("text/") => "application/octet-stream",
                m => m,
            };
            ResourceContents::blob(blob, uri).with_mime_type(mime)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_and_refuse_escapes() {
        let uri = file_uri("pdf", "templates/a b#1.md");
        assert_eq!(uri, "skill://pdf/templates/a%20b%231.md");
        assert_eq!(
            parse_uri(&uri),
            Some(("pdf".into(), "templates/a b#1.md".into()))
        );
        assert_eq!(parse_uri("skill://pdf"), Some(("pdf".into(), "".into())));
        for bad in [
            "skill://pdf/../other/SKILL.md",
            "skill://pdf/%2e%2e/x",
            "skill://pdf/a%2Fb",
            "skill://pdf//x",
            "skill://pdf/x/",
            "skill://pdf/./x",
            "skill://pdf/a%5Cb",
            "skill://pdf/SKILL.md?x",
            "skill://../SKILL.md",
            "skill://Pdf/SKILL.md",
            "file:///etc/passwd",
            "skill://pdf/%zz",
        ] {
            assert_eq!(parse_uri(bad), None, "{bad}");
        }
    }

    #[test]
    fn pages_never_split_and_cursors_resume() {
        let uris: Vec<String> = (0..5).map(|i| skill_uri(&format!("s{i}"))).collect();
        let (first, next) = page(uris.clone(), |u| u, None, 2).unwrap();
        assert_eq!(first, uris[..2]);
        let (second, next) = page(uris.clone(), |u| u, next.as_deref(), 2).unwrap();
        assert_eq!(second, uris[2..4]);
        let (third, next) = page(uris.clone(), |u| u, next.as_deref(), 2).unwrap();
        assert_eq!((third, next), (uris[4..].to_vec(), None));
        assert!(page(uris, |u| u, Some("nonsense"), 2).is_err());
    }

    #[test]
    fn directories_list_direct_children_only() {
        let files = [
            ("SKILL.md", 3),
            ("templates/a.md", 1),
            ("templates/regional/eu.md", 2),
        ];
        let root = directory_children("pdf", files.iter().copied(), "").unwrap();
        let uris: Vec<_> = root.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(uris, ["skill://pdf/SKILL.md", "skill://pdf/templates"]);
        let sub = directory_children("pdf", files.iter().copied(), "templates").unwrap();
        assert_eq!(sub.len(), 2);
        assert!(sub.iter().any(|r| r.is_directory()));
        assert!(directory_children("pdf", files.iter().copied(), "SKILL.md").is_none());
        assert!(directory_children("pdf", files.iter().copied(), "missing").is_none());
    }
}
