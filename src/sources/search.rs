//! `search` (docs/sources.md, each kind's list step): what a listed source
//! offers that matches a query, as one row per skill whatever its kind.

use serde::Serialize;

use super::candidate::join_rel;
use super::index::{ResolvedIndex, warn_problems};
use super::opened::{SearchTarget, SourceListing};
use crate::sources::index::format::EntryProblem;
use crate::ui::Ui;

#[derive(Debug, Default, Serialize)]
pub struct Hit {
    pub source: String,
    pub name: String,
    pub description: String,
    pub version: Option<String>,
    /// `skill-md`, `archive`, `files` (a v0.1.0 file list) or `git`.
    pub format: &'static str,
    /// `0.2.0`, `0.1.0`, or `git` for a git repository.
    pub index_format: &'static str,
    /// The artifact digest the index pins; `null` for v0.1.0 file lists.
    pub digest: Option<String>,
    pub url: Option<String>,
    /// Key id of the signer, when the source pins keys.
    pub signed_by: Option<String>,
    /// Git sources: the commit the ref resolved to (what `add` would lock).
    pub commit: Option<String>,
    /// Git sources: the skill's folder in the repository (`null`: its root).
    pub subpath: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Problem {
    pub source: String,
    #[serde(flatten)]
    pub problem: EntryProblem,
}

/// What one source offers that matches `needle` (lowercased; `None`: all):
/// its hits, and the entries an index skipped or refused (each warned about).
pub fn hits(
    ui: &Ui,
    target: &SearchTarget,
    listing: SourceListing,
    needle: Option<&str>,
) -> (Vec<Hit>, Vec<Problem>) {
    let source = &target.source.name;
    let found: Vec<Hit> = match listing {
        SourceListing::Index(resolved) => return index_hits(ui, &resolved, needle),
        SourceListing::Discovered(found) => (found.skills.iter())
            .map(|skill| Hit {
                source: source.clone(),
                name: skill.name.clone(),
                description: skill.description.clone(),
                format: found.format,
                index_format: found.format,
                url: Some(found.url.clone()),
                commit: found.commit.clone(),
                subpath: join_rel(found.subpath.as_deref(), &skill.path),
                ..Hit::default()
            })
            .collect(),
        SourceListing::Oci(listed) => (listed.into_iter())
            .map(|(name, description, version)| Hit {
                source: source.clone(),
                url: Some(format!("{}/{name}", target.text.trim())),
                name,
                description,
                version,
                format: "oci",
                index_format: "oci",
                ..Hit::default()
            })
            .collect(),
    };
    let found = found
        .into_iter()
        .filter(|h| matches(needle, &h.name, &h.description))
        .collect();
    (found, Vec::new())
}

/// An index's entries that match `needle`, and the ones it skipped or
/// refused.
fn index_hits(ui: &Ui, resolved: &ResolvedIndex, needle: Option<&str>) -> (Vec<Hit>, Vec<Problem>) {
    warn_problems(ui, resolved);
    let problems = (resolved.index.problems.iter())
        .map(|problem| Problem {
            source: resolved.source.clone(),
            problem: problem.clone(),
        })
        .collect();
    let mut hits = Vec::new();
    let signed_by = resolved.signer.as_ref().map(|s| s.key_id.clone());
    for entry in &resolved.index.entries {
        if !matches(needle, &entry.name, &entry.description) {
            continue;
        }
        hits.push(Hit {
            source: resolved.source.clone(),
            name: entry.name.clone(),
            description: entry.description.clone(),
            version: entry.version.clone(),
            format: entry.format_label(),
            index_format: resolved.index.format.as_str(),
            digest: entry.digest().map(|d| d.to_string()),
            url: entry.url().map(|u| u.to_string()),
            signed_by: signed_by.clone(),
            ..Hit::default()
        });
    }
    (hits, problems)
}

/// Whether a skill's name or description holds the (lowercased) query.
fn matches(needle: Option<&str>, name: &str, description: &str) -> bool {
    needle.is_none_or(|n| name.to_lowercase().contains(n) || description.to_lowercase().contains(n))
}
