//! `skillpm search [QUERY] [--source NAME]`: what the sources offer, as
//! each kind lists it (`crate::sources::load::list`, docs/sources.md); git
//! sources are listed like index entries (docs/design.md#formats).

use crate::escape::Untrusted;
use std::io::Write;

use serde::Serialize;

use super::source::load_project;
use super::{Context, Report};
use crate::error::Exit;
use crate::ops::fail;
use crate::sources::index::format::EntryProblem;
use crate::sources::load::list;
use crate::sources::{Hit, Net, SearchResult, SearchTarget};

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub query: Option<String>,
    /// A source name from skills.toml, or a URL or path.
    pub source: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SourceFailure {
    pub source: String,
    pub error: String,
    /// Serialized as its number.
    pub exit: Exit,
}

/// `--json` shape:
/// `{"query": null | "…",
///   "results": [{"source", "name", "description", "version", "format",
///                "index_format", "digest", "url", "signed_by", "commit", "subpath"}],
///   "problems": [{"source", "position", "name", "kind": "unknown-type" | "invalid", "message"}],
///   "failures": [{"source", "error", "exit"}]}`
#[derive(Debug, Serialize)]
pub struct SearchReport {
    pub query: Option<String>,
    pub results: Vec<Hit>,
    pub problems: Vec<SourceEntryProblem>,
    /// Sources that could not be searched (the others still were).
    pub failures: Vec<SourceFailure>,
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
    let net = Net {
        ui: &ctx.ui,
        offline: ctx.offline,
        allow_http: ctx.allow_http,
        fetcher: Some(&fetcher),
    };
    let needle = opts.query.as_deref().map(str::to_lowercase);
    let mut report = SearchReport {
        query: opts.query.clone(),
        results: Vec::new(),
        problems: Vec::new(),
        failures: Vec::new(),
    };
    for target in &targets {
        match list(&net, target) {
            Ok(listing) => {
                let (hits, problems) = hits(target, listing, needle.as_deref());
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
        .warn(format!("source `{}` skipped: {error}", target.decl.name));
    report.failures.push(SourceFailure {
        source: target.decl.name.clone(),
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
            return Ok(vec![SearchTarget::declared(decl, &project.root)]);
        }
        if crate::sources::location::looks_like_location(wanted) {
            return Ok(vec![SearchTarget::ad_hoc(wanted, &ctx.cwd)]);
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
        .map(|d| Ok(SearchTarget::declared(d, &project.root)))
        .collect()
}

#[derive(Debug, Serialize)]
pub struct SourceEntryProblem {
    pub source: String,
    #[serde(flatten)]
    pub problem: EntryProblem,
}

/// What one source offers that matches `needle` (lowercased; `None`: all),
/// and the entries an index skipped or refused.
pub fn hits(
    target: &SearchTarget,
    listing: SearchResult,
    needle: Option<&str>,
) -> (Vec<Hit>, Vec<SourceEntryProblem>) {
    let hits = (listing.hits.into_iter())
        .filter(|h| matches(needle, &h.name, &h.description))
        .collect();
    let problems = (listing.problems.into_iter())
        .map(|problem| SourceEntryProblem {
            source: target.decl.name.clone(),
            problem,
        })
        .collect();
    (hits, problems)
}

/// Whether a skill's name or description holds the (lowercased) query.
fn matches(needle: Option<&str>, name: &str, description: &str) -> bool {
    needle.is_none_or(|n| name.to_lowercase().contains(n) || description.to_lowercase().contains(n))
}
