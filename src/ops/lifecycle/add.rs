//! `skillpm add [--source NAME|URL|PATH] <name>... | --all`.

use crate::shown::Untrusted;
use std::io::Write;

use serde::Serialize;

use super::approval::review;
use super::placement::{LinkChanges, sync_links};
use super::session::Session;
use crate::approve::Summary;
use crate::digest::Digest;
use crate::error::{Exit, OpError};
use crate::ops::fail;
use crate::ops::{Context, Report};
use crate::project::Manifest;
use crate::project::lock::Lockfile;
use crate::project::manifest::{SkillDecl, SourceDecl};
use crate::skill::is_valid_name;
use crate::sources::candidate::{Candidate, Offer, clean_subpath, shown_path};
use crate::sources::oci::kind::tagged_name;
use crate::sources::opened::Opened;

#[derive(Debug, Clone, Default)]
pub struct AddOptions {
    /// A declared source name, or a URL / path / git spec (added as a source).
    pub source: Option<String>,
    pub names: Vec<String>,
    pub all: bool,
    pub yes: bool,
    /// `--ref` for git sources.
    pub git_ref: Option<String>,
    /// `--path SUBDIR`: the folder inside the source to look in (recorded
    /// on the new source in skills.toml).
    pub path: Option<String>,
    /// `--strict`: refuse what `skillpm check` refuses, not only what
    /// cannot be loaded.
    pub strict: bool,
    /// `--list`: show what the source offers (and from which folder), change
    /// nothing.
    pub list: bool,
    /// `--accept-findings`: accept the audit findings of what is approved.
    pub accept_findings: bool,
}

/// One skill `add` resolved.
#[derive(Debug, Serialize)]
pub struct Added {
    pub name: String,
    pub version: Option<String>,
    pub tree: Digest,
    /// `false` when approval was declined: locked but linked nowhere.
    pub approved: bool,
    /// Specification rules the skill breaks that did not stop it (as in
    /// its lock entry).
    pub warnings: Vec<String>,
}

/// A skill `add --all` found but did not add, and why.
#[derive(Debug, Serialize)]
pub struct Skipped {
    /// Its name, or its folder when no usable name could be read.
    pub name: String,
    /// The folder it was found in (git and folder sources).
    pub path: Option<String>,
    pub reason: String,
}

/// `--json`: `{"source": {"name", "url", "new"}, "skills": [{"name", "version",
/// "tree", "approved", "warnings": ["SKILL.md: …"]}], "skipped": [{"name",
/// "path", "reason"}], "summaries": [<approval summary>], "links": {"linked",
/// "copied", "unlinked"}}`. `skipped` lists what `--all` left out.
/// With `--list`: `{"source", "offered": [{"name", "description", "path"}],
/// "skipped": [...]}` and nothing is added (`skills` empty).
#[derive(Debug, Serialize)]
pub struct AddReport {
    pub source: AddedSource,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub offered: Vec<Offer>,
    pub skills: Vec<Added>,
    pub skipped: Vec<Skipped>,
    pub summaries: Vec<Summary>,
    pub links: LinkChanges,
}

#[derive(Debug, Serialize)]
pub struct AddedSource {
    pub name: String,
    pub url: String,
    /// Declared by this command.
    pub new: bool,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for o in &self.offered {
            writeln!(
                out,
                "{}{}",
                Untrusted(&o.name),
                folder_note(o.path.as_deref())
            )?;
            writeln!(
                out,
                "    {}",
                crate::skill::printable(o.description.lines().next().unwrap_or("").trim())
            )?;
        }
        if self.source.new {
            writeln!(
                out,
                "Added source `{}` ({})",
                self.source.name, self.source.url
            )?;
        }
        for s in &self.skills {
            let state = if s.approved {
                "approved"
            } else {
                "NOT approved (locked, not linked; `skillpm approve` later)"
            };
            writeln!(
                out,
                "{} {}{}  {state}",
                Untrusted(&s.name),
                s.version
                    .as_deref()
                    .map(|v| format!("{} ", Untrusted(v)))
                    .unwrap_or_default(),
                s.tree
            )?;
        }
        // Warnings and skipped skills went to stderr as they were found.
        if !self.skipped.is_empty() {
            writeln!(
                out,
                "{} skipped (see the warnings above)",
                self.skipped.len()
            )?;
        }
        LinkChanges::write_paths(out, "linked", &self.links.linked)?;
        if self.offered.is_empty() {
            let plural =
                |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            let warnings: usize = self.skills.iter().map(|s| s.warnings.len()).sum();
            writeln!(
                out,
                "{} added, {} skipped, {}",
                plural(self.skills.len(), "skill"),
                self.skipped.len(),
                plural(warnings, "warning")
            )?;
        }
        Ok(())
    }
}

pub fn add(ctx: &Context, opts: &AddOptions) -> anyhow::Result<AddReport> {
    let mut sess = Session::open(ctx, opts.strict)?;
    super::placement::apply_choices(ctx, &mut sess.manifest)?;
    sess.accept_findings = opts.accept_findings;
    let result = add_in(&mut sess, opts);
    // What this run fetched and no lock entry it wrote names (declined,
    // refused, or the run failed) leaves no store entry behind.
    // (`sess.lock` is the lock on disk: the one just saved, or the old one.)
    let kept: std::collections::HashSet<crate::digest::Digest> = (sess.lock.iter())
        .flat_map(|l| l.skills().iter().map(|s| s.tree))
        .collect();
    let _ = sess.store.discard_created(|d| kept.contains(d));
    result
}

fn add_in(sess: &mut Session<'_>, opts: &AddOptions) -> anyhow::Result<AddReport> {
    let ctx = sess.ctx;
    let (source_text, mut names) = source_and_names(opts)?;
    let (decl, new_source) = choose_source(
        sess,
        source_text.as_deref(),
        opts.git_ref.as_deref(),
        opts.path.as_deref(),
    )?;
    let tags: std::collections::BTreeMap<String, String> = names
        .iter()
        .filter_map(|n| tagged_name(n).map(|(n, t)| (n.to_owned(), t.to_owned())))
        .collect();
    if !tags.is_empty() && !decl.url.starts_with(crate::sources::oci::SCHEME) {
        return fail(
            Exit::Usage,
            format!(
                "NAME@TAG picks a tag of an OCI source (oci://…); source `{}` is {}",
                decl.name, decl.url
            ),
        );
    }
    let opened = Opened::open(&mut sess.workspace(), &decl)?;
    let offers = opened.offers();
    // `skillpm add https://github.com/o/r/tree/main/skills/pdf`: the URL
    // names the skill's own folder, so there is nothing to pick.
    if names.is_empty() && !opts.all && opened.is_one_skill() {
        names = offers.iter().map(|o| o.name.clone()).collect();
    }
    let mut skipped = Vec::new();
    if opts.list {
        return Ok(offer_report(&decl, &opened, offers));
    }
    let candidates = resolve_wanted(sess, &opened, &offers, names, opts.all, &mut skipped)?;
    drop(opened);

    let mut lock = sess.lock_or_empty();
    let pending: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| {
            lock.get(&c.locked.name)
                .is_none_or(|l| l.approved != Some(c.locked.tree))
        })
        .collect();
    let (summaries, answers) = review(sess, pending.iter().copied(), &lock, opts.yes)?;

    if new_source {
        sess.manifest.add_source(&decl)?;
    }
    let added = record(
        ctx,
        &candidates,
        &pending,
        (&summaries, &answers),
        &mut lock,
        &mut sess.manifest,
        &decl.name,
    )?;
    record_tags(&mut sess.manifest, &added, &tags)?;
    let enabled = sess.active(&lock);
    // New entries become durable (one flush) before links and the lock name them.
    sess.store.seal_pending()?;
    let links = sync_links(sess, &enabled)?;
    sess.manifest.save()?;
    sess.save_lock(lock)?;
    Ok(AddReport {
        source: AddedSource {
            name: decl.name.clone(),
            url: decl.url.clone(),
            new: new_source,
        },
        offered: Vec::new(),
        skills: added,
        skipped,
        summaries,
        links,
    })
}

/// The candidates asked for: every offer with `--all` (what cannot be
/// added goes to `skipped`), else the named ones (or those picked when
/// none are named).
fn resolve_wanted(
    sess: &mut Session<'_>,
    opened: &Opened,
    offers: &[Offer],
    names: Vec<String>,
    all: bool,
    skipped: &mut Vec<Skipped>,
) -> anyhow::Result<Vec<Candidate>> {
    if all {
        if !names.is_empty() {
            return fail(Exit::Usage, "pass skill names or --all, not both");
        }
        return resolve_all(sess, opened, skipped);
    }
    let selected = select(sess.ctx, offers, names)?;
    opened.resolve_names(&mut sess.workspace(), &selected)
}

/// Writes each candidate into the lock (approved or not, as answered; a
/// declined update keeps the locked version) and into `[skills]`.
fn record(
    ctx: &Context,
    candidates: &[Candidate],
    pending: &[&Candidate],
    (summaries, answers): (&[Summary], &[bool]),
    lock: &mut Lockfile,
    manifest: &mut Manifest,
    source: &str,
) -> anyhow::Result<Vec<Added>> {
    let mut added = Vec::new();
    for c in candidates {
        let name = &c.locked.name;
        let approved = pending
            .iter()
            .position(|p| &p.locked.name == name)
            .is_none_or(|i| answers[i]);
        if !approved && lock.get(name).is_some() {
            ctx.ui.warn(format!(
                "`{name}` declined: keeping the version already locked"
            ));
        } else {
            let mut locked = c.locked.clone();
            let summary = summaries.iter().find(|s| &s.name == name);
            super::approval::record_approval(&mut locked, summary, approved);
            lock.upsert(locked);
        }
        let enabled = manifest.skills().get(name).is_none_or(|d| d.enabled);
        manifest.set_skill(
            name,
            &SkillDecl {
                source: source.to_owned(),
                version: None,
                enabled,
            },
        )?;
        added.push(Added {
            name: name.clone(),
            version: c.locked.version.clone(),
            tree: c.locked.tree,
            approved,
            warnings: c.locked.warnings.clone(),
        });
    }
    Ok(added)
}

/// `skillpm add github:owner/repo pdf`: a location in first position is
/// the source; every other word must be a skill name.
fn source_and_names(opts: &AddOptions) -> anyhow::Result<(Option<String>, Vec<String>)> {
    let mut names = opts.names.clone();
    let mut source_text = opts.source.clone();
    if source_text.is_none()
        && let Some(first) = names.first()
        && !is_valid_name(first)
        && crate::sources::spec::looks_like_location(first)
    {
        source_text = Some(names.remove(0));
    }
    if let Some(n) = names
        .iter()
        .find(|n| !is_valid_name(n) && tagged_name(n).is_none())
    {
        return fail(
            Exit::Usage,
            format!("`{n}` is not a skill name (1-64 of a-z, 0-9 and inner hyphens)"),
        );
    }
    Ok((source_text, names))
}

/// OCI: the tag `add NAME@TAG` asked for becomes the skill's `version` in
/// skills.toml, which `update` and `outdated` follow.
fn record_tags(
    manifest: &mut Manifest,
    added: &[Added],
    tags: &std::collections::BTreeMap<String, String>,
) -> anyhow::Result<()> {
    for a in added {
        if let (Some(tag), Some(decl)) = (tags.get(&a.name), manifest.skills().get(&a.name)) {
            let decl = SkillDecl {
                version: Some(tag.clone()),
                ..decl.clone()
            };
            manifest.set_skill(&a.name, &decl)?;
        }
    }
    Ok(())
}

/// `add --list`: what the source offers (and what it skipped), nothing changed.
fn offer_report(decl: &SourceDecl, opened: &Opened, offers: Vec<Offer>) -> AddReport {
    let mut skipped = Vec::new();
    if let Some(found) = opened.discovery() {
        for s in &found.skipped {
            skipped.push(Skipped {
                name: crate::skill::printable(s.path.rsplit('/').next().unwrap_or(".")),
                path: Some(s.path.clone()),
                reason: s.reason.clone(),
            });
        }
    }
    AddReport {
        source: AddedSource {
            name: decl.name.clone(),
            url: decl.url.clone(),
            new: false,
        },
        offered: offers,
        skills: Vec::new(),
        skipped,
        summaries: Vec::new(),
        links: LinkChanges::default(),
    }
}

/// `  (folder)` after an offered skill's name (git and folder sources).
fn folder_note(path: Option<&str>) -> String {
    path.map(|p| format!("  ({})", crate::skill::printable(shown_path(p))))
        .unwrap_or_default()
}

/// The declared source to use, or a new declaration for a location.
fn choose_source(
    sess: &Session<'_>,
    text: Option<&str>,
    git_ref: Option<&str>,
    path: Option<&str>,
) -> anyhow::Result<(SourceDecl, bool)> {
    let manifest = &sess.manifest;
    let path = clean_subpath(path)?;
    if path.is_some() && text.is_some_and(|t| manifest.source(t).is_some()) {
        return fail(
            Exit::Usage,
            "--path applies to a source given by its location (URL or folder), not to a declared source (edit its `path` in skills.toml)",
        );
    }
    let Some(text) = text else {
        return Ok((only_declared_source(manifest, path.is_some())?, false));
    };
    if let Some(decl) = manifest.source(text) {
        if git_ref.is_some() {
            return fail(
                Exit::Usage,
                format!(
                    "--ref applies to a git URL, not to the declared source `{text}` (edit its url in skills.toml)"
                ),
            );
        }
        return Ok((decl.clone(), false));
    }
    if !crate::sources::spec::looks_like_location(text) {
        return Err(manifest.require_source(text).unwrap_err().into());
    }
    let mut url = crate::sources::spec::manifest_url(text, &sess.ctx.cwd, &sess.project.root)?;
    if let Some(r) = git_ref {
        url = with_git_ref(sess, text, url, r)?;
    }
    if let Some(existing) = manifest
        .sources()
        .iter()
        .find(|s| s.url == url && s.path == path)
    {
        return Ok((existing.clone(), false));
    }
    let mut name = unique_source_name(sess, &url);
    if let Some(p) = path.as_deref().and_then(|p| p.rsplit('/').next())
        && manifest.sources().iter().any(|s| s.url == url)
    {
        // The same location with another folder: name it after the folder.
        name = unique_name(sess, &format!("{name}-{p}"));
    }
    Ok((
        SourceDecl {
            name,
            url,
            keys: Vec::new(),
            token_env: None,
            path,
            cosign_key: None,
        },
        true,
    ))
}

/// No `--source`: the project's one declared source, else a usage error
/// saying what to pass (`--path` alone names no source's folder).
fn only_declared_source(manifest: &Manifest, with_path: bool) -> anyhow::Result<SourceDecl> {
    if with_path {
        return fail(
            Exit::Usage,
            "--path needs --source <URL|PATH> (the source whose folder it names)",
        );
    }
    match manifest.sources() {
        [only] => Ok(only.clone()),
        [] => fail(
            Exit::NotFound,
            "this project declares no source: pass `--source <URL|PATH>` (or `skillpm source add <name> <url>` first)",
        ),
        many => fail(
            Exit::Usage,
            format!(
                "this project declares several sources ({}): say which with --source NAME",
                many.iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

/// A git location `url` with `--ref r` written into it (`@r` for `github:`,
/// else `#r`); a registry takes no ref (exit 2).
fn with_git_ref(sess: &Session<'_>, text: &str, url: String, r: &str) -> anyhow::Result<String> {
    let root = &sess.project.root;
    let Some(written) = crate::sources::git::spec_for(&url, root)? else {
        return fail(
            Exit::Usage,
            format!("--ref applies to git sources; `{text}` is a registry"),
        );
    };
    // A ref in the text too (`…#v1`, `…@v1`, `tree/v1`) must be the same
    // one (else exit 2), and is then not written twice.
    crate::git::parse_git_spec(&url, Some(r), root)?;
    if written.reference.is_some() {
        return Ok(url);
    }
    Ok(if url.starts_with("github:") {
        format!("{url}@{r}")
    } else {
        format!("{url}#{r}")
    })
}

/// `https://skills.acme.dev/x` → `skills-acme-dev`; `github:o/r` → `o-r`;
/// `…/team/skills.git#v2` → `skills`; a folder → its name. Made unique among
/// the declared sources.
fn unique_source_name(sess: &Session<'_>, url: &str) -> String {
    // `oci://ghcr.io/acme/skills` → `acme-skills`.
    let oci = crate::sources::oci::OciRef::parse(url).ok();
    let stem = git_stem(url)
        .or_else(|| oci.map(|r| r.repository))
        .or_else(|| {
            url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
        })
        .unwrap_or_else(|| {
            std::path::Path::new(url.trim_end_matches('/'))
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "source".into())
        });
    unique_name(sess, &stem)
}

/// `stem` as a source name (lowercase, `-` for anything else), made unique
/// among the declared sources.
fn unique_name(sess: &Session<'_>, stem: &str) -> String {
    let dashed = stem
        .to_ascii_lowercase()
        .replace(|c: char| !c.is_ascii_alphanumeric(), "-");
    let mut name = dashed
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    name.truncate(56);
    let base = match name.trim_end_matches('-') {
        "" => "source".to_owned(),
        trimmed => trimmed.to_owned(),
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while sess.manifest.source(&candidate).is_some() {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

/// The name part of a git source: `owner/repo[/sub]` for GitHub, else the
/// repository's last path segment without `.git` (a host says little about
/// a git repository) and never the `#ref` (`add --ref` appends it).
fn git_stem(url: &str) -> Option<String> {
    let without_ref = url.split_once('#').map_or(url, |(u, _)| u);
    if let Some(rest) = without_ref.strip_prefix("github:") {
        return Some(rest.split('@').next().unwrap_or(rest).to_owned());
    }
    if let Some(rest) = without_ref.strip_prefix(crate::git::GITHUB_WEB) {
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).take(2).collect();
        return Some(parts.join("/").trim_end_matches(".git").to_owned());
    }
    if !crate::sources::spec::is_git_form(without_ref) {
        return None;
    }
    let last = without_ref
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or(without_ref);
    Some(last.strip_suffix(".git").unwrap_or(last).to_owned())
}

fn select(ctx: &Context, offers: &[Offer], names: Vec<String>) -> anyhow::Result<Vec<String>> {
    if !names.is_empty() {
        return Ok(names);
    }
    if offers.is_empty() {
        return fail(Exit::NotFound, "the source offers no skills");
    }
    let labels: Vec<String> = offers
        .iter()
        .map(|o| {
            let d = crate::skill::printable(o.description.lines().next().unwrap_or(""));
            format!(
                "{} - {}{}",
                o.name,
                d.chars().take(70).collect::<String>(),
                folder_note(o.path.as_deref())
            )
        })
        .collect();
    let picked = ctx.ui.pick_many(
        "Which skills? (type to filter, space to select, enter to confirm)",
        labels,
        "name the skills to add, or pass --all",
    )?;
    Ok(picked
        .into_iter()
        .filter_map(|l| l.split(" - ").next().map(str::to_owned))
        .collect())
}

/// `--all`: every skill the source offers that can be added. A skill that
/// cannot (refused content, a name two folders claim, a failed download)
/// goes to `skipped` with the reason; only when nothing at all could be
/// added is it an error, saying what was looked at and what was found.
fn resolve_all(
    sess: &mut Session<'_>,
    opened: &Opened,
    skipped: &mut Vec<Skipped>,
) -> anyhow::Result<Vec<Candidate>> {
    let duplicated = skip_discovery_refusals(opened, skipped);
    let mut wanted: Vec<Offer> = Vec::new();
    for offer in opened.offers() {
        if !duplicated.contains(&offer.name) && !wanted.iter().any(|w| w.name == offer.name) {
            wanted.push(offer);
        }
    }
    // Discovery already warned about what it skipped and about duplicates.
    let warned = skipped.len();
    let names: Vec<String> = wanted.iter().map(|o| o.name.clone()).collect();
    let mut out = Vec::new();
    for (offer, result) in wanted
        .into_iter()
        .zip(opened.resolve_each(&mut sess.workspace(), &names))
    {
        match result {
            Ok(c) => out.push(c),
            Err(e) => skipped.push(Skipped {
                name: offer.name,
                path: offer.path,
                reason: format!("{e:#}"),
            }),
        }
    }
    for s in &skipped[warned..] {
        sess.ctx.ui.warn(format!(
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

/// What discovery refused goes to `skipped`: folders it could not read as
/// skills, and every folder of a name several folders hold (which one is
/// meant is for the user to say with --path). Returns those names.
fn skip_discovery_refusals(opened: &Opened, skipped: &mut Vec<Skipped>) -> Vec<String> {
    let mut duplicated: Vec<String> = Vec::new();
    let Some(found) = opened.discovery() else {
        return duplicated;
    };
    for s in &found.skipped {
        let folder = s.path.rsplit('/').next().unwrap_or("");
        skipped.push(Skipped {
            name: crate::skill::printable(shown_path(folder)),
            path: Some(s.path.clone()),
            reason: s.reason.clone(),
        });
    }
    for (name, paths) in found.duplicates() {
        duplicated.push(name.to_owned());
        for p in &paths {
            skipped.push(Skipped {
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
fn nothing_added(opened: &Opened, skipped: &[Skipped]) -> OpError {
    let decl = opened.decl();
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
