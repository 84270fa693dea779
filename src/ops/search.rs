//! `skillpm search [QUERY] [--source NAME]`: what the sources offer.

use std::io::Write;
use std::time::SystemTime;

use serde::Serialize;

use super::source::{fetcher, load_project};
use super::{Context, Report};
use crate::error::{Classify, Exit, OpError};
use crate::index::{EntryProblem, ProblemKind};
use crate::source::{self, ResolvedIndex, Source};

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub query: Option<String>,
    /// A source name from skills.toml, or a URL or path.
    pub source: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Hit {
    pub source: String,
    pub name: String,
    pub description: String,
    pub version: Option<String>,
    /// `skill-md`, `archive` or `files` (a v0.1.0 file list).
    pub format: &'static str,
    /// `0.2.0` or `0.1.0`.
    pub index_format: &'static str,
    /// The artifact digest the index pins; `null` for v0.1.0 file lists.
    pub digest: Option<String>,
    pub url: Option<String>,
    /// Key id of the signer, when the source pins keys.
    pub signed_by: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Problem {
    pub source: String,
    #[serde(flatten)]
    pub problem: EntryProblem,
}

#[derive(Debug, Serialize)]
pub struct Failure {
    pub source: String,
    pub error: String,
    pub exit: u8,
}

/// `--json` shape:
/// `{"query": null | "…",
///   "results": [{"source", "name", "description", "version", "format",
///                "index_format", "digest", "url", "signed_by"}],
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
        self.failures
            .first()
            .map(|f| exit_from_code(f.exit))
            .unwrap_or(Exit::Success)
    }
}

fn exit_from_code(code: u8) -> Exit {
    [
        Exit::Integrity,
        Exit::Network,
        Exit::Unsafe,
        Exit::Locked,
        Exit::Usage,
        Exit::NotFound,
    ]
    .into_iter()
    .find(|e| e.code() == code)
    .unwrap_or(Exit::Other)
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
                .map(|v| format!(" {v}"))
                .unwrap_or_default();
            let signed = match &hit.signed_by {
                Some(id) => format!("signed by {id}"),
                None => "unsigned".into(),
            };
            writeln!(
                out,
                "{}{version}  [{}, {}, index {}, {signed}]",
                hit.name, hit.source, hit.format, hit.index_format
            )?;
            writeln!(out, "    {}", first_line(&hit.description))?;
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
    let sources = select_sources(ctx, opts.source.as_deref())?;
    let single = opts.source.is_some();
    let fetcher = fetcher(ctx)?;
    let needle = opts.query.as_deref().map(str::to_lowercase);
    let mut report = SearchReport {
        query: opts.query.clone(),
        results: Vec::new(),
        problems: Vec::new(),
        failures: Vec::new(),
    };
    for source in &sources {
        let resolved = match source::resolve(&fetcher, source, SystemTime::now()) {
            Ok(r) => r,
            Err(e) if single => return Err(e.into()),
            Err(e) => {
                let exit = e.exit().code();
                let error = format!("{:#}", anyhow::Error::from(e));
                ctx.ui
                    .warn(format!("source `{}` skipped: {error}", source.name));
                report.failures.push(Failure {
                    source: source.name.clone(),
                    error,
                    exit,
                });
                continue;
            }
        };
        collect(ctx, &resolved, needle.as_deref(), &mut report);
    }
    Ok(report)
}

/// One warning per entry an index skipped or refused.
pub(crate) fn warn_problems(ctx: &Context, resolved: &ResolvedIndex) {
    for problem in &resolved.index.problems {
        let label = match problem.kind {
            ProblemKind::UnknownType => "skipped",
            ProblemKind::Invalid => "refused",
        };
        ctx.ui
            .warn(format!("{} ({label}): {problem}", resolved.index_url));
    }
}

fn collect(
    ctx: &Context,
    resolved: &ResolvedIndex,
    needle: Option<&str>,
    report: &mut SearchReport,
) {
    warn_problems(ctx, resolved);
    for problem in &resolved.index.problems {
        report.problems.push(Problem {
            source: resolved.source.clone(),
            problem: problem.clone(),
        });
    }
    let signed_by = resolved.signer.as_ref().map(|s| s.key_id.clone());
    for entry in &resolved.index.entries {
        let matches = needle.is_none_or(|n| {
            entry.name.to_lowercase().contains(n) || entry.description.to_lowercase().contains(n)
        });
        if !matches {
            continue;
        }
        report.results.push(Hit {
            source: resolved.source.clone(),
            name: entry.name.clone(),
            description: entry.description.clone(),
            version: entry.version.clone(),
            format: entry.format_label(),
            index_format: resolved.index.format.as_str(),
            digest: entry.digest().map(|d| d.to_string()),
            url: entry.url().map(|u| u.to_string()),
            signed_by: signed_by.clone(),
        });
    }
}

/// `--source NAME` picks a declared source, or a URL/path used as is;
/// otherwise every declared source.
fn select_sources(ctx: &Context, wanted: Option<&str>) -> anyhow::Result<Vec<Source>> {
    let project = load_project(ctx);
    if let Some(wanted) = wanted {
        if let Ok((project, manifest)) = &project
            && let Some(decl) = manifest.source(wanted)
        {
            return Ok(vec![Source::from_decl(decl, &project.root)?]);
        }
        if looks_like_location(wanted) {
            return Ok(vec![Source::ad_hoc(wanted, &ctx.cwd, Vec::new())?]);
        }
        return match project {
            Ok((_, manifest)) => Err(manifest.require_source(wanted).unwrap_err().into()),
            Err(_) => Err(OpError::new(
                Exit::NotFound,
                format!("no source named `{wanted}` (no skills.toml here declares one); pass a URL or path instead"),
            )
            .into()),
        };
    }
    let (project, manifest) = project?;
    if manifest.sources().is_empty() {
        return Err(OpError::new(
            Exit::NotFound,
            format!(
                "{} declares no sources; add one with `skillpm source add <name> <url>` or pass --source URL",
                manifest.path().display()
            ),
        )
        .into());
    }
    manifest
        .sources()
        .iter()
        .map(|d| Source::from_decl(d, &project.root).map_err(Into::into))
        .collect()
}

fn looks_like_location(text: &str) -> bool {
    text.contains('/')
        || text.contains(':')
        || text.contains('\\')
        || text.ends_with(".json")
        || text == "."
}
