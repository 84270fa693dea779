//! `skillpm search [QUERY] [--source NAME]`: what the sources offer. Git
//! sources are listed like index entries: the ref is resolved, that commit
//! checked out and its skills discovered (docs/design.md#formats).

use crate::shown::Untrusted;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

use super::lifecycle::git_spec_for;
use super::source::{fetcher, load_project};
use super::{Context, Report};
use crate::error::Exit;
use crate::fetch::Fetcher;
use crate::git::{self, GitOptions, GitSpec, RepoSkill};
use crate::index::{EntryProblem, ProblemKind};
use crate::ops::fail;
use crate::source::{self, ResolvedIndex, Source};
use crate::store::Store;

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub query: Option<String>,
    /// A source name from skills.toml, or a URL or path.
    pub source: Option<String>,
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
    let fetcher = fetcher(ctx)?;
    let needle = opts.query.as_deref().map(str::to_lowercase);
    let mut report = SearchReport {
        query: opts.query.clone(),
        results: Vec::new(),
        problems: Vec::new(),
        failures: Vec::new(),
    };
    for target in &targets {
        if target.text.trim().starts_with(crate::sources::oci::SCHEME) {
            match list_oci(ctx, target) {
                Ok(hits) => report.results.extend(
                    hits.into_iter()
                        .filter(|h| matches(needle.as_deref(), &h.name, &h.description)),
                ),
                Err(e) if single => return Err(e),
                Err(e) => fail_source(ctx, target, e, &mut report),
            }
            continue;
        }
        match list(ctx, &fetcher, target) {
            Ok(Listing::Index(resolved)) => collect(ctx, &resolved, needle.as_deref(), &mut report),
            Ok(Listing::Found(found)) => {
                for skill in &found.skills {
                    if matches(needle.as_deref(), &skill.name, &skill.description) {
                        report.results.push(Hit {
                            source: target.source.name.clone(),
                            name: skill.name.clone(),
                            description: skill.description.clone(),
                            format: found.format,
                            index_format: found.format,
                            url: Some(found.url.clone()),
                            commit: found.commit.clone(),
                            subpath: super::lifecycle::join_rel(
                                found.subpath.as_deref(),
                                &skill.path,
                            ),
                            ..Hit::default()
                        });
                    }
                }
            }
            Err(e) if single => return Err(e),
            Err(e) => fail_source(ctx, target, e, &mut report),
        }
    }
    Ok(report)
}

/// A source that could not be searched: warned about and reported.
fn fail_source(ctx: &Context, target: &Target, e: anyhow::Error, report: &mut SearchReport) {
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

/// An OCI source: its one skill, or the namespace's repositories as the
/// registry's catalog lists them (a registry that forbids listing says so).
fn list_oci(ctx: &Context, target: &Target) -> anyhow::Result<Vec<Hit>> {
    let decl = crate::project::manifest::SourceDecl {
        name: target.source.name.clone(),
        url: target.text.trim().to_owned(),
        keys: Vec::new(),
        token_env: target.token_env.clone(),
        path: None,
        cosign_key: None,
    };
    let listed = super::lifecycle::oci_source::search_listing(ctx, &decl)?;
    Ok(listed
        .into_iter()
        .map(|(name, description, version)| Hit {
            source: target.source.name.clone(),
            url: Some(format!("{}/{name}", decl.url)),
            name,
            description,
            version,
            format: "oci",
            index_format: "oci",
            ..Hit::default()
        })
        .collect())
}

/// Whether a skill's name or description holds the (lowercased) query.
fn matches(needle: Option<&str>, name: &str, description: &str) -> bool {
    needle.is_none_or(|n| name.to_lowercase().contains(n) || description.to_lowercase().contains(n))
}

/// A source to search, and how its text was written (git sources are read
/// from the text, relative paths against `base_dir`).
struct Target {
    source: Source,
    text: String,
    base_dir: PathBuf,
    /// skills.toml's `token-env` (the GitHub fast path sends that token).
    token_env: Option<String>,
    /// skills.toml's `path`: the folder inside the source.
    path: Option<String>,
}

enum Listing {
    Index(Box<ResolvedIndex>),
    Found(Found),
}

/// What a git source offers at the commit its ref names now, or a plain
/// folder of skills.
struct Found {
    /// `git` or `folder`.
    format: &'static str,
    /// The repository, or the folder.
    url: String,
    commit: Option<String>,
    /// The folder inside the source that the skills' paths start from.
    subpath: Option<String>,
    skills: Vec<RepoSkill>,
}

fn list(ctx: &Context, fetcher: &Fetcher, target: &Target) -> anyhow::Result<Listing> {
    let subpath = super::lifecycle::clean_subpath(target.path.as_deref())?;
    if let Some(spec) = git_spec_for(&target.text, &target.base_dir)? {
        let spec = super::lifecycle::with_folder(spec, subpath.as_deref())?;
        return Ok(Listing::Found(list_git(
            ctx,
            spec,
            target.token_env.as_deref(),
        )?));
    }
    if let Some(base) = super::lifecycle::folder_source_for(&target.text, &target.base_dir) {
        let dir = super::lifecycle::folder_dir(&base, subpath.as_deref())?;
        let found = git::discover_skills(&dir);
        for w in &found.warnings {
            ctx.ui.warn(format!("{}: {w}", base.display()));
        }
        return Ok(Listing::Found(Found {
            format: "folder",
            url: base.display().to_string(),
            commit: None,
            subpath,
            skills: found.skills,
        }));
    }
    Ok(Listing::Index(Box::new(source::resolve(
        fetcher,
        &target.source,
        SystemTime::now(),
    )?)))
}

/// Resolves the ref, checks that commit out in the store's temp folder and
/// discovers its skills (the checkout is removed when this returns).
fn list_git(ctx: &Context, spec: GitSpec, token_env: Option<&str>) -> anyhow::Result<Found> {
    let options = GitOptions::new(ctx.offline, token_env)?.allowing_http(ctx.allow_http);
    ctx.ui.status("Resolving", spec.to_string());
    let resolved = git::resolve(&spec, &options)?;
    let store = Store::open()?;
    let checkout = git::checkout(&spec, &resolved.commit, &store.tmp_dir(), &options)?;
    let discovery = checkout.discover();
    for warning in resolved
        .warnings
        .iter()
        .chain(&checkout.warnings)
        .chain(&discovery.warnings)
    {
        ctx.ui.warn(format!("{spec}: {warning}"));
    }
    Ok(Found {
        format: "git",
        url: spec.url(),
        commit: Some(resolved.commit),
        subpath: spec.subpath,
        skills: discovery.skills,
    })
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
        if !matches(needle, &entry.name, &entry.description) {
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
            ..Hit::default()
        });
    }
}

/// `--source NAME` picks a declared source, or a URL/path used as is;
/// otherwise every declared source.
fn select_sources(ctx: &Context, wanted: Option<&str>) -> anyhow::Result<Vec<Target>> {
    let project = load_project(ctx);
    let declared = |decl: &crate::project::manifest::SourceDecl, root: &Path| {
        Ok(Target {
            source: Source::from_decl(decl, root)?,
            text: decl.url.clone(),
            base_dir: root.to_owned(),
            token_env: source::bound_token_env(decl),
            path: decl.path.clone(),
        })
    };
    if let Some(wanted) = wanted {
        if let Ok((project, manifest)) = &project
            && let Some(decl) = manifest.source(wanted)
        {
            return Ok(vec![declared(decl, &project.root)?]);
        }
        if crate::sources::spec::looks_like_location(wanted) {
            return Ok(vec![Target {
                source: Source::ad_hoc(wanted, &ctx.cwd, Vec::new())?,
                text: wanted.to_owned(),
                base_dir: ctx.cwd.clone(),
                token_env: None,
                path: None,
            }]);
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
        .map(|d| declared(d, &project.root))
        .collect()
}
