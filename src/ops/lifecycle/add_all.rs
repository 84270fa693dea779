//! `add --all` (docs/sources.md): every skill a source offers that can be
//! added. What cannot (refused content, a name two folders claim, a failed
//! download) is skipped with its reason; only when nothing at all could be
//! added is it an error, saying where it looked and what it found.

use serde::Serialize;

use crate::error::{Exit, OpError};
use crate::sources::candidate::{Candidate, Offer, shown_path};
use crate::sources::load::Loaded;
use crate::sources::workspace::Workspace;

/// `--all`: every skill the source offers that can be added. A skill that
/// cannot (refused content, a name two folders claim, a failed download)
/// goes to `skipped` with the reason; only when nothing at all could be
/// added is it an error, saying what was looked at and what was found.
pub fn resolve_all(
    ws: &mut Workspace<'_>,
    opened: &Loaded,
    skipped: &mut Vec<NotAdded>,
) -> anyhow::Result<Vec<Candidate>> {
    let duplicated = skip_discovery_refusals(opened, skipped);
    let mut seen = std::collections::HashSet::new();
    let wanted: Vec<Offer> = (opened.source.offers().into_iter())
        .filter(|o| !duplicated.contains(&o.name) && seen.insert(o.name.clone()))
        .collect();
    // Discovery already warned about what it skipped and about duplicates.
    let warned = skipped.len();
    let names: Vec<String> = wanted.iter().map(|o| o.name.clone()).collect();
    let mut out = Vec::new();
    for (offer, result) in wanted
        .into_iter()
        .zip(opened.source.resolve(ws, &opened.decl, &names))
    {
        match result {
            Ok(c) => out.push(c),
            Err(e) => skipped.push(NotAdded {
                name: offer.name,
                path: offer.path,
                reason: format!("{e:#}"),
            }),
        }
    }
    for s in &skipped[warned..] {
        ws.ui.warn(format!(
            "skipped `{}`{}: {}",
            s.name,
            s.path
                .as_deref()
                .map(|p| format!(" ({})", shown_path(p)))
                .unwrap_or_default(),
            s.reason
        ));
    }
    if out.is_empty() {
        return Err(nothing_added(opened, skipped).into());
    }
    Ok(out)
}

/// A skill `add --all` found but did not add, and why.
#[derive(Debug, Serialize)]
pub struct NotAdded {
    /// Its name, or its folder when no usable name could be read.
    pub name: String,
    /// The folder it was found in (git and folder sources).
    pub path: Option<String>,
    pub reason: String,
}

/// What discovery refused goes to `skipped`: folders it could not read as
/// skills, and every folder of a name several folders hold (which one is
/// meant is for the user to say with --path). Returns those names.
pub fn skip_discovery_refusals(opened: &Loaded, skipped: &mut Vec<NotAdded>) -> Vec<String> {
    let mut duplicated: Vec<String> = Vec::new();
    let Some(found) = opened.source.discovery() else {
        return duplicated;
    };
    for s in &found.skipped {
        let folder = s.path.rsplit('/').next().unwrap_or("");
        skipped.push(NotAdded {
            name: crate::skill::printable(shown_path(folder)),
            path: Some(s.path.clone()),
            reason: s.reason.clone(),
        });
    }
    for (name, paths) in found.duplicates() {
        duplicated.push(name.to_owned());
        for p in &paths {
            skipped.push(NotAdded {
                name: name.to_owned(),
                path: Some((*p).to_owned()),
                reason: format!(
                    "{} folders hold a skill named `{name}` ({}); add one by name with --path <folder>",
                    paths.len(),
                    paths
                        .iter()
                        .map(|p| shown_path(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
    }
    duplicated
}

/// `--all` added nothing: exit 8 when no skill was found, else exit 5 with
/// every folder's reason, and where it looked either way.
fn nothing_added(opened: &Loaded, skipped: &[NotAdded]) -> OpError {
    let decl = &opened.decl;
    let (exit, what) = if skipped.is_empty() {
        (Exit::NotFound, "found no skill".to_owned())
    } else {
        (
            Exit::Unsafe,
            format!(
                "found {} skill folder(s) but could add none ({})",
                skipped.len(),
                skipped
                    .iter()
                    .map(|s| format!("`{}`: {}", s.name, s.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )
    };
    OpError::new(
        exit,
        format!(
            "--all {what} in source `{}`: looked in {}; point --path at the folder holding the skills, or check them with `skillpm check`",
            decl.name,
            opened.looked_at()
        ),
    )
}
