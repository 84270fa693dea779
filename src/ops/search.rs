//! `skillpm search [QUERY] [--source NAME]`: what the sources offer, as
//! each kind lists it (`crate::sources::opened::list`, docs/sources.md); git
//! sources are listed like index entries (docs/design.md#formats).

use crate::escape::Untrusted;
use std::io::Write;

use serde::Serialize;

use super::source::load_project;
use super::{Context, Report};
use crate::error::Exit;
use crate::net::fetch::Fetcher;
use crate::ops::fail;
use crate::printer::Printer;
use crate::sources::candidate::join_rel;
use crate::sources::index::format::EntryProblem;
use crate::sources::index::{ResolvedIndex, warn_problems};
use crate::sources::opened::SourceListing;
use crate::sources::opened::{SearchTarget, list};

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub query: Option<String>,
    /// A source name from skills.toml, or a URL or path.
    pub source: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Failure {
    pub source: String,
    pub error: String,
    /// Serialized as its number.
    pub exit: Exit,
}

/// `--json` shape:
/// `{"query": null | "…",
///   "results": [{"source", "name", "description", "version", "format",
///                "index_format", "digest", "url", "signed_by", "commit", "subpath",
///                "publisher"?: {"identity", "issuer", "log_index", …}, "publisher_refused"?: "…"}],
///   "problems": [{"source", "position", "name", "kind": "unknown-type" | "invalid", "message"}],
///   "failures": [{"source", "error", "exit"}]}`
#[derive(Debug, Serialize)]
pub struct SearchReport {
    pub query: Option<String>,
    pub results: Vec<Hit>,
    pub problems: Vec<Problem>,
    /// Sources that could not be searched (the others still were).
    pub failures: Vec<Failure>,
}

impl SearchReport {
    /// 0, or the code of the first source that failed.
    pub fn exit(&self) -> Exit {
        self.failures.first().map_or(Exit::Success, |f| f.exit)
    }
}

impl Report for SearchReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.results.is_empty() {
            return match &self.query {
                Some(q) => writeln!(out, "No skills match `{q}`."),
                None => writeln!(out, "No skills found."),
            };
        }
        for hit in &self.results {
            let version = hit
                .version
                .as_deref()
                .map(|v| format!(" {}", Untrusted(v)))
                .unwrap_or_default();
            let signed = match &hit.signed_by {
                Some(id) => format!("signed by {}", Untrusted(id)),
                None => "unsigned".into(),
            };
            match &hit.commit {
                None if hit.format == "folder" => writeln!(
                    out,
                    "{}  [{}, folder {}]",
                    Untrusted(&hit.name),
                    Untrusted(&hit.source),
                    Untrusted(hit.subpath.as_deref().unwrap_or("."))
                )?,
                Some(commit) => writeln!(
                    out,
                    "{}  [{}, git {} at {}]",
                    Untrusted(&hit.name),
                    Untrusted(&hit.source),
                    Untrusted(hit.subpath.as_deref().unwrap_or(".")),
                    Untrusted(commit.get(..commit.len().min(12)).unwrap_or(commit))
                )?,
                None => writeln!(
                    out,
                    "{}{version}  [{}, {}, index {}, {signed}]",
                    Untrusted(&hit.name),
                    Untrusted(&hit.source),
                    Untrusted(hit.format),
                    Untrusted(hit.index_format)
                )?,
            }
            writeln!(out, "    {}", Untrusted(first_line(&hit.description)))?;
            if let Some(d) = &hit.digest {
                writeln!(out, "    {d}")?;
            }
            match (&hit.publisher, &hit.publisher_refused) {
                (Some(p), _) => writeln!(
                    out,
                    "    publisher: {} (Sigstore, verified)",
                    Untrusted(&p.summary())
                )?,
                (None, Some(why)) => {
                    writeln!(out, "    publisher: NOT verified: {}", Untrusted(why))?
                }
                (None, None) => {}
            }
        }
        Ok(())
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// Resolves each source (signatures checked) and lists matching entries. One
/// source failing does not hide the others: it is reported and the exit code
/// says so. Bad entries are warned about and listed under `problems`.
pub fn search(ctx: &Context, opts: &SearchOptions) -> anyhow::Result<SearchReport> {
    let targets = select_sources(ctx, opts.source.as_deref())?;
    let single = opts.source.is_some();
    let fetcher = crate::sources::workspace::fetcher(&ctx.ui, ctx.offline, ctx.allow_http)?;
    let needle = opts.query.as_deref().map(str::to_lowercase);
    let mut report = SearchReport {
        query: opts.query.clone(),
        results: Vec::new(),
        problems: Vec::new(),
        failures: Vec::new(),
    };
    for target in &targets {
        match list(&ctx.ui, (ctx.offline, ctx.allow_http), &fetcher, target) {
            Ok(listing) => {
                let (hits, problems) = hits(&ctx.ui, &fetcher, target, listing, needle.as_deref());
                report.results.extend(hits);
                report.problems.extend(problems);
            }
            Err(e) if single => return Err(e),
            Err(e) => fail_source(ctx, target, e, &mut report),
        }
    }
    Ok(report)
}

/// A source that could not be searched: warned about and reported.
fn fail_source(ctx: &Context, target: &SearchTarget, e: anyhow::Error, report: &mut SearchReport) {
    let exit = crate::error::exit_code_of(&e);
    let error = format!("{e:#}");
    ctx.ui
        .warn(format!("source `{}` skipped: {error}", target.source.name));
    report.failures.push(Failure {
        source: target.source.name.clone(),
        error,
        exit,
    });
}

/// `--source NAME` picks a declared source, or a URL/path used as is;
/// otherwise every declared source.
fn select_sources(ctx: &Context, wanted: Option<&str>) -> anyhow::Result<Vec<SearchTarget>> {
    let project = load_project(ctx);
    if let Some(wanted) = wanted {
        if let Ok((project, manifest)) = &project
            && let Some(decl) = manifest.source(wanted)
        {
            return Ok(vec![SearchTarget::declared(decl, &project.root)?]);
        }
        if crate::sources::spec::looks_like_location(wanted) {
            return Ok(vec![SearchTarget::ad_hoc(wanted, &ctx.cwd)?]);
        }
        return match project {
            Ok((_, manifest)) => Err(manifest.require_source(wanted).unwrap_err().into()),
            Err(_) => fail(
                Exit::NotFound,
                format!(
                    "no source named `{wanted}` (no skills.toml here declares one); pass a URL or path instead"
                ),
            ),
        };
    }
    let (project, manifest) = project?;
    if manifest.sources().is_empty() {
        return fail(
            Exit::NotFound,
            format!(
                "{} declares no sources; add one with `skillpm source add <name> <url>` or pass --source URL",
                manifest.path().display()
            ),
        );
    }
    manifest
        .sources()
        .iter()
        .map(|d| SearchTarget::declared(d, &project.root))
        .collect()
}

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
    /// Who built it, as the entry's Sigstore bundle proves for the listed
    /// digest (docs/provenance.md#where-bundles-come-from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher: Option<crate::trust::sigstore::Verified>,
    /// Why the entry's bundle does not hold (or is missing, when the source
    /// declares a publisher).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publisher_refused: Option<String>,
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
    ui: &Printer,
    fetcher: &Fetcher,
    target: &SearchTarget,
    listing: SourceListing,
    needle: Option<&str>,
) -> (Vec<Hit>, Vec<Problem>) {
    let source = &target.source.name;
    let found: Vec<Hit> = match listing {
        SourceListing::Index(resolved) => {
            let (mut hits, problems) = index_hits(ui, &resolved, needle);
            publishers(fetcher, target, &resolved, &mut hits);
            return (hits, problems);
        }
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
fn index_hits(
    ui: &Printer,
    resolved: &ResolvedIndex,
    needle: Option<&str>,
) -> (Vec<Hit>, Vec<Problem>) {
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

/// The most hits whose bundles one search verifies (a bundle read each).
const MAX_PUBLISHERS: usize = 50;

/// Each index hit's publisher: its entry's bundle verified for the listed
/// digest and held to the source's declared publisher; a source that
/// declares one and an entry without a bundle is said to be refused, as
/// `add` would refuse it.
fn publishers(
    fetcher: &Fetcher,
    target: &SearchTarget,
    resolved: &ResolvedIndex,
    hits: &mut [Hit],
) {
    let expected = target.publisher.as_ref();
    for hit in hits.iter_mut().take(MAX_PUBLISHERS) {
        let Some(entry) = resolved.index.entry(&hit.name) else {
            continue;
        };
        let what = format!("`{}` of source `{}`", hit.name, hit.source);
        let found = match (&entry.sigstore, entry.digest()) {
            (Some(url), Some(digest)) => crate::sources::publisher::listed(
                fetcher,
                resolved.auth.as_ref(),
                expected,
                &what,
                url,
                &digest,
            )
            .map_err(|e| format!("{e:#}")),
            _ if expected.is_some() => Err(format!("{what} carries no Sigstore bundle")),
            _ => continue,
        };
        match found {
            Ok(v) => hit.publisher = Some(v),
            Err(why) => hit.publisher_refused = Some(why),
        }
    }
}

/// Whether a skill's name or description holds the (lowercased) query.
fn matches(needle: Option<&str>, name: &str, description: &str) -> bool {
    needle.is_none_or(|n| name.to_lowercase().contains(n) || description.to_lowercase().contains(n))
}
