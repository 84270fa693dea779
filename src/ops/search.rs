//! `skillpm search [QUERY] [--source NAME]`: what the sources offer, as
//! each kind lists it (`crate::sources::load::list`, docs/sources.md); git
//! sources are listed like index entries (docs/design.md#formats).

use crate::escape::Untrusted;
use std::io::Write;

use serde::Serialize;

use super::source::load_project;
use super::{Context, Report};
use crate::error::Exit;
use crate::net::fetch::Fetcher;
use crate::ops::fail;
use crate::sources::index::IndexSource;
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
///                "index_format", "digest", "url", "signed_by", "commit", "subpath",
///                "publisher"?: {"identity", "issuer", "log_index", …}, "publisher_refused"?: "…"}],
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
    let query = crate::sources::Query::new(opts.query.as_deref());
    let targets = select_sources(ctx, opts.source.as_deref())?;
    let single = opts.source.is_some();
    let fetcher = crate::sources::workspace::fetcher(&ctx.ui, ctx.offline, ctx.allow_http)?;
    let net = Net {
        ui: &ctx.ui,
        offline: ctx.offline,
        allow_http: ctx.allow_http,
        fetcher: Some(&fetcher),
    };
    let mut report = SearchReport {
        query: opts.query.clone(),
        results: Vec::new(),
        problems: Vec::new(),
        failures: Vec::new(),
    };
    for target in targets {
        let target = &target.matching(query.clone());
        match list(&net, target) {
            Ok(listing) => {
                let (mut hits, problems) = hits(target, listing);
                publishers(&fetcher, target, &mut hits);
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

/// What one source offers that matches the target's query (already
/// filtered by [`list`]), and the entries an index skipped or refused.
pub fn hits(target: &SearchTarget, listing: SearchResult) -> (Vec<Hit>, Vec<SourceEntryProblem>) {
    let hits = listing.hits;
    let problems = (listing.problems.into_iter())
        .map(|problem| SourceEntryProblem {
            source: target.decl.name.clone(),
            problem,
        })
        .collect();
    (hits, problems)
}

/// The most hits whose bundles one search verifies (a bundle read each).
const MAX_PUBLISHERS: usize = 50;

/// Each index hit's publisher: its entry's bundle verified for the listed
/// digest and held to the source's declared publisher; an entry without a
/// bundle of a source that declares one is said to be refused, as `add`
/// would refuse it. A search never fails for it.
fn publishers(fetcher: &Fetcher, target: &SearchTarget, hits: &mut [Hit]) {
    let expected = target.decl.expected_publisher();
    let auth = (hits.iter().any(|h| h.bundle.is_some()))
        .then(|| IndexSource::from_decl(&target.decl, &target.base_dir).ok())
        .flatten()
        .and_then(|s| s.auth);
    for hit in hits.iter_mut().take(MAX_PUBLISHERS) {
        let what = format!("`{}` of source `{}`", hit.name, hit.source);
        let digest = hit.digest.as_deref().and_then(|d| d.parse().ok());
        let found = match (&hit.bundle, digest) {
            (Some(url), Some(digest)) => crate::sources::publisher::listed(
                fetcher,
                auth.as_ref(),
                expected.as_ref(),
                &what,
                url,
                &digest,
            )
            .map_err(|e| format!("{e:#}")),
            // An index entry (it lists a digest) without a bundle.
            (None, Some(_)) if expected.is_some() => {
                Err(format!("{what} carries no Sigstore bundle"))
            }
            _ => continue,
        };
        match found {
            Ok(v) => hit.publisher = Some(v),
            Err(why) => hit.publisher_refused = Some(why),
        }
    }
}
