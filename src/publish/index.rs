//! The two index documents a published site serves (docs/design.md#formats).
//!
//! v0.2.0 (`.well-known/agent-skills/index.json`) is the Agent Skills
//! Discovery form with `$schema` and one archive entry per skill, plus the
//! skillpm extensions `version` and `files`. The `files` extension is a list of
//! plain path strings on purpose: the vercel-labs `skills` CLI reads this same
//! index and accepts an entry only when `files` is a non-empty string list
//! holding `SKILL.md`; OpenCode's reader wants `version` as a string.
//!
//! v0.1.0 (`.well-known/skills/index.json`) is the legacy form (name,
//! description, files) read by OpenCode and older clients.

use serde::Serialize;

use crate::digest::Digest;

pub const SCHEMA_V0_2_0: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// `.well-known/agent-skills/index.json`.
#[derive(Debug, Serialize)]
pub struct IndexV2 {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub skills: Vec<EntryV2>,
}

#[derive(Debug, Serialize)]
pub struct EntryV2 {
    pub name: String,
    /// Always `archive`: every skill is served as a `.tar.gz`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub description: String,
    /// Relative to the index URL: `<name>.tar.gz`.
    pub url: String,
    /// sha256 of the artifact bytes.
    pub digest: Digest,
    /// skillpm extension: `metadata.version` from the frontmatter, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// skillpm extension: the same tree is served under `<name>/`.
    pub files: Vec<String>,
}

/// `.well-known/skills/index.json`.
#[derive(Debug, Serialize)]
pub struct IndexV1 {
    pub skills: Vec<EntryV1>,
}

#[derive(Debug, Serialize)]
pub struct EntryV1 {
    pub name: String,
    pub description: String,
    /// OpenCode refreshes its cached copy when this string changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub files: Vec<String>,
}

/// Pretty JSON (two-space indent) plus a final newline: stable bytes that
/// also read well in a diff of a committed site.
pub fn to_bytes<T: Serialize>(doc: &T) -> Vec<u8> {
    // Serializing these plain structs (strings, lists, digests) cannot fail.
    let mut bytes = serde_json::to_vec_pretty(doc).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
