//! Publishing: turn a folder of skills into a static registry that every
//! reader accepts: skillpm, the Agent Skills Discovery RFC's clients,
//! OpenCode and the vercel-labs `skills` CLI (docs/design.md#formats, #scale).
//!
//! The site, relative to its root:
//!
//! ```text
//! .nojekyll                                  so GitHub Pages serves dot-folders
//! .well-known/agent-skills/index.json        v0.2.0 index (+ `version`, `files`)
//! .well-known/agent-skills/index.json.minisig   with --sign
//! .well-known/agent-skills/<name>.tar.gz     the artifact the index's digest covers
//! .well-known/agent-skills/<name>.zip        with --zip (not in the index)
//! .well-known/agent-skills/<name>/<file>     the tree, for readers that fetch files
//! .well-known/skills/index.json              v0.1.0 index
//! .well-known/skills/<name>/<file>           the tree again, for v0.1.0 readers
//! ```
//!
//! Everything is a pure function of the skills' bytes and executable bits
//! (plus the signing inputs), so publishing the same skills twice gives the
//! same site byte for byte.

pub mod attest;
mod error;
pub mod files;
pub mod guard;
pub mod index;
pub mod keyfiles;
pub mod pack;
pub mod sign;
pub mod site;

use serde::Serialize;

pub use error::PublishError;
use files::SkillFiles;
use site::{AGENT_SKILLS_DIR, LEGACY_SKILLS_DIR, Site};

use crate::digest::Digest;

/// A skill that passed `check`, read into memory, ready to be packed.
#[derive(Debug, Clone)]
pub struct SkillSource {
    pub name: String,
    pub description: String,
    /// `metadata.version` from the frontmatter.
    pub version: Option<String>,
    pub files: SkillFiles,
}

/// One artifact written to the site.
#[derive(Debug, Clone, Serialize)]
pub struct Artifact {
    /// Path relative to the site root.
    pub path: String,
    /// sha256 of the artifact's bytes.
    pub digest: Digest,
    pub size: u64,
}

/// What was published for one skill.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedSkill {
    pub name: String,
    pub version: Option<String>,
    /// The tree digest (docs/design.md#digests): what clients store and approve.
    pub tree: Digest,
    /// The `.tar.gz` the v0.2.0 index points at.
    pub archive: Artifact,
    /// The `.zip`, with `--zip`.
    pub zip: Option<Artifact>,
    pub files: usize,
    /// Sum of the file sizes, unpacked.
    pub bytes: u64,
}

/// A site built in memory, before signing and writing.
#[derive(Debug, Clone)]
pub struct BuiltSite {
    pub site: Site,
    pub skills: Vec<PublishedSkill>,
}

impl BuiltSite {
    /// The exact bytes of the v0.2.0 index (what a signature covers).
    pub fn index_bytes(&self) -> &[u8] {
        self.site.get(&site::index_path()).unwrap_or_default()
    }
}

/// `metadata.version` of a parsed SKILL.md, as text.
pub fn frontmatter_version(
    frontmatter: &serde_json::Map<String, serde_json::Value>,
) -> Option<String> {
    match frontmatter.get("metadata")?.get("version")? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Packs every skill and lays out the whole site (both indexes, archives,
/// both copies of each tree). `skills` may come in any order.
pub fn build_site(skills: &[SkillSource], zip: bool) -> Result<BuiltSite, PublishError> {
    let mut skills: Vec<&SkillSource> = skills.iter().collect();
    skills.sort_by(|a, b| a.name.cmp(&b.name));

    let mut site = Site::default();
    site.insert(site::NOJEKYLL_FILE, Vec::new(), false);
    let mut v2 = Vec::new();
    let mut v1 = Vec::new();
    let mut published = Vec::new();
    for skill in skills {
        let name = &skill.name;
        let pack_error = |format: &'static str, message: String| PublishError::Pack {
            skill: name.clone(),
            format,
            message,
        };
        let tar =
            pack::tar_gz(&skill.files.files).map_err(|e| pack_error("tar.gz", e.to_string()))?;
        let archive = artifact(format!("{AGENT_SKILLS_DIR}/{name}.tar.gz"), &tar);
        site.insert(archive.path.clone(), tar, false);
        let zip = if zip {
            let bytes =
                pack::zip(&skill.files.files).map_err(|e| pack_error("zip", e.to_string()))?;
            let zip = artifact(format!("{AGENT_SKILLS_DIR}/{name}.zip"), &bytes);
            site.insert(zip.path.clone(), bytes, false);
            Some(zip)
        } else {
            None
        };
        for file in &skill.files.files {
            for root in [AGENT_SKILLS_DIR, LEGACY_SKILLS_DIR] {
                let path = format!("{root}/{name}/{}", file.path);
                site.insert(path, file.bytes.clone(), file.executable);
            }
        }
        let listing = skill.files.listing();
        v2.push(index::EntryV2 {
            name: name.clone(),
            kind: "archive",
            description: skill.description.clone(),
            url: format!("{name}.tar.gz"),
            digest: archive.digest,
            version: skill.version.clone(),
            files: listing.clone(),
        });
        v1.push(index::EntryV1 {
            name: name.clone(),
            description: skill.description.clone(),
            version: skill.version.clone(),
            files: listing,
        });
        published.push(PublishedSkill {
            name: name.clone(),
            version: skill.version.clone(),
            tree: skill.files.tree,
            archive,
            zip,
            files: skill.files.files.len(),
            bytes: skill.files.total_bytes(),
        });
    }
    let v2 = index::IndexV2 {
        schema: index::SCHEMA_V0_2_0,
        skills: v2,
    };
    site.insert(site::index_path(), index::to_bytes(&v2), false);
    site.insert(
        site::legacy_index_path(),
        index::to_bytes(&index::IndexV1 { skills: v1 }),
        false,
    );
    Ok(BuiltSite {
        site,
        skills: published,
    })
}

fn artifact(path: String, bytes: &[u8]) -> Artifact {
    Artifact {
        path,
        digest: Digest::of_bytes(bytes),
        size: bytes.len() as u64,
    }
}
