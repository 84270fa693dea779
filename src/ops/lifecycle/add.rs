//! `skillpm add [--source NAME|URL|PATH] <name>... | --all`.

use crate::escape::Untrusted;
use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;

pub use super::add_all::NotAdded;
use super::add_all::resolve_all;
use super::approval::{Review, review};
use super::place::sync_links;
use super::session::Session;
use crate::audit::Finding;
use crate::audit::gate::{ACCEPT_FLAG, refusal};
use crate::digest::Digest;
use crate::error::Exit;
use crate::ops::fail;
use crate::ops::{Context, Report};
use crate::placement::LinkChanges;
use crate::project::Manifest;
use crate::project::lock::Lockfile;
use crate::project::manifest::{SkillDecl, SourceDecl};
use crate::skill::is_valid_name;
use crate::sources::candidate::{Candidate, Offer, shown_path};
use crate::sources::id::{SourceId, SourceKind};
use crate::sources::load::Loaded;
use crate::sources::oci::kind::tagged_name;
use crate::view::approval::Summary;

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
    /// `false` when the update of a locked skill was declined (the locked
    /// version is kept). A new skill declined is not added (`skipped`).
    pub approved: bool,
    /// Specification rules the skill breaks that did not stop it (as in
    /// its lock entry).
    pub warnings: Vec<String>,
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
    pub skipped: Vec<NotAdded>,
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
                "declined (the version already locked is kept)"
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
            let plural = |n: usize, word: &str| format!("{n} {word}{}", crate::ops::plural(n));
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
    // A cold cache (no `store/` yet): all that is added is judged, so the
    // audit's first-use cost starts as the source is read
    // (`Workspace::audit_ahead`). With a warm cache it starts with the
    // first entry made (`Store::commit`) or downloaded (the index kind): a
    // warm add judges nothing new.
    let cold = !opts.list
        && crate::cache::cache_root()
            .is_ok_and(|root| !root.join(crate::cache::layout::STORE).exists());
    let mut sess = Session::open(ctx, opts.strict)?;
    sess.audit_ahead = cold;
    crate::placement::apply_choices(&ctx.agents, ctx.link_mode, &mut sess.manifest)?;
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
    let (source_text, mut names) = source_and_names(opts)?;
    let (decl, new_source) = crate::ops::source_decl::choose(
        &sess.manifest,
        (&sess.ctx.cwd, &sess.project.root),
        source_text.as_deref(),
        opts.git_ref.as_deref(),
        opts.path.as_deref(),
    )?;
    let tags = oci_tags(&decl, &sess.project.root, &names)?;
    // The install policy judges the source before it is read (docs/policy.md).
    let manifest_path = sess.manifest.path();
    let violations = sess
        .policy
        .check_source(&decl, &sess.project.root, manifest_path);
    crate::policy::check::refuse(violations, manifest_path, &sess.lock_path())?;
    if opts.list {
        let opened = Loaded::open_listing(&mut sess.workspace(), &decl)?;
        return Ok(offer_report(&decl, opened));
    }
    let opened = Loaded::open(&mut sess.workspace(), &decl)?;
    let offers = opened.source.offers();
    // `skillpm add https://github.com/o/r/tree/main/skills/pdf`: the URL
    // names the skill's own folder, so there is nothing to pick.
    if names.is_empty() && !opts.all && opened.source.is_one_skill() {
        names = offers.iter().map(|o| o.name.clone()).collect();
    }
    let mut skipped = Vec::new();
    let candidates = resolve_wanted(sess, &opened, &offers, names, opts.all, &mut skipped)?;
    drop(opened);
    // `--all` adds every skill it can: one the audit refuses is skipped.
    sess.hold_back = opts.all;
    let (skills, summaries, links) = approve_and_place(
        sess,
        (&decl, new_source),
        &candidates,
        (&tags, opts.yes),
        &mut skipped,
    )?;
    Ok(AddReport {
        source: AddedSource {
            name: decl.name.clone(),
            url: decl.url.clone(),
            new: new_source,
        },
        offered: Vec::new(),
        skills,
        skipped,
        summaries,
        links,
    })
}

/// `NAME@TAG` picks a tag of an OCI source: the tags asked for, by name.
fn oci_tags(
    decl: &SourceDecl,
    root: &std::path::Path,
    names: &[String],
) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
    let tags: std::collections::BTreeMap<String, String> = names
        .iter()
        .filter_map(|n| tagged_name(n).map(|(n, t)| (n.to_owned(), t.to_owned())))
        .collect();
    if !tags.is_empty() && SourceId::of(decl, root)?.kind != SourceKind::Oci {
        return fail(
            Exit::Usage,
            format!(
                "NAME@TAG picks a tag of an OCI source (oci://…); source `{}` is {}",
                decl.name, decl.url
            ),
        );
    }
    Ok(tags)
}

/// Asks approval for what is new, records every candidate in the lock and
/// `[skills]` (the source too, when new), places the links and saves. A
/// new skill declined at the prompt, or held back by the audit (`--all`),
/// is not added: it goes to `skipped`, and nothing of it is kept.
fn approve_and_place(
    sess: &mut Session<'_>,
    (decl, new_source): (&SourceDecl, bool),
    candidates: &[Candidate],
    (tags, yes): (&std::collections::BTreeMap<String, String>, bool),
    skipped: &mut Vec<NotAdded>,
) -> anyhow::Result<(Vec<Added>, Vec<Summary>, LinkChanges)> {
    let mut lock = sess.lock_or_empty();
    let pending: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| {
            lock.get(&c.locked.name)
                .is_none_or(|l| l.approved != Some(c.locked.tree))
        })
        .collect();
    let reviewed = review(sess, pending.iter().copied(), &lock, yes)?;
    if !reviewed.held.is_empty() && reviewed.held.len() == candidates.len() {
        return Err(held_back(sess, &pending, &reviewed.held).into());
    }
    let left_out = leave_out(sess, (decl, &pending), &reviewed, &lock, skipped)?;
    if new_source && candidates.len() > left_out.len() {
        sess.manifest.add_source(decl)?;
    }
    let kept: Vec<Candidate> = (candidates.iter())
        .filter(|c| !left_out.contains(&c.locked.name))
        .cloned()
        .collect();
    let added = record(
        sess.ctx,
        &kept,
        &pending,
        (&reviewed.summaries, &reviewed.answers),
        (&mut lock, &mut sess.manifest),
        &decl.name,
    )?;
    record_tags(&mut sess.manifest, &added, tags)?;
    let enabled = sess.active(&lock);
    // New entries become durable (one flush) before links and the lock name them.
    sess.store.seal_pending()?;
    let links = sync_links(sess, &enabled)?;
    sess.save_manifest_and_lock(lock)?;
    Ok((added, reviewed.summaries, links))
}

/// `--all` could add nothing: every skill was held back (exit 5).
fn held_back(
    sess: &Session<'_>,
    pending: &[&Candidate],
    held: &[(usize, Vec<Finding>)],
) -> crate::error::OpError {
    let refused: Vec<(String, String, Vec<&Finding>)> = (held.iter())
        .map(|(i, stop)| {
            let c = pending[*i];
            let tree = c.locked.tree.hex()[..12].to_owned();
            (c.locked.name.clone(), tree, stop.iter().collect())
        })
        .collect();
    let fail_on = sess.policy.fail_on(sess.manifest.audit_fail_on());
    refusal(&refused, fail_on, ACCEPT_FLAG)
}

/// The names of the pending candidates that are not added: held back by
/// the audit, or new and declined at the prompt. Each goes to `skipped`
/// with its reason (and a warning).
fn leave_out(
    sess: &Session<'_>,
    (decl, pending): (&SourceDecl, &[&Candidate]),
    reviewed: &Review,
    lock: &Lockfile,
    skipped: &mut Vec<NotAdded>,
) -> anyhow::Result<Vec<String>> {
    let fail_on = sess.policy.fail_on(sess.manifest.audit_fail_on());
    let mut out = Vec::new();
    for (i, c) in pending.iter().enumerate() {
        let name = &c.locked.name;
        let reason = match reviewed.held.iter().find(|(h, _)| *h == i) {
            Some((_, stop)) => format!(
                "held back by the audit: {} finding{} at or above `{fail_on}` ({}); read them, and only if you trust them run `skillpm add --source {} {name} --accept-findings`",
                stop.len(),
                crate::ops::plural(stop.len()),
                stop.iter()
                    .map(|f| format!("{} {}", f.rule, f.place()))
                    .collect::<Vec<_>>()
                    .join(", "),
                decl.name
            ),
            None if !reviewed.answers[i] && lock.get(name).is_none() => {
                "not approved at the prompt; nothing of it was kept".to_owned()
            }
            None => continue,
        };
        sess.ctx.ui.warn(format!("skipped `{name}`: {reason}"));
        skipped.push(NotAdded {
            name: name.clone(),
            path: c.locked.subpath.clone(),
            reason,
        });
        out.push(name.clone());
    }
    Ok(out)
}

/// The candidates asked for: every offer with `--all` (what cannot be
/// added goes to `skipped`), else the named ones (or those picked when
/// none are named).
fn resolve_wanted(
    sess: &mut Session<'_>,
    opened: &Loaded,
    offers: &[Offer],
    names: Vec<String>,
    all: bool,
    skipped: &mut Vec<NotAdded>,
) -> anyhow::Result<Vec<Candidate>> {
    if all {
        if !names.is_empty() {
            return fail(Exit::Usage, "pass skill names or --all, not both");
        }
        return resolve_all(&mut sess.workspace(), opened, skipped);
    }
    let selected = select(sess.ctx, offers, names)?;
    opened.resolve_names(&mut sess.workspace(), &selected)
}

/// Writes each candidate into the lock (approved as answered; a declined
/// update keeps the locked version) and into `[skills]`.
fn record(
    ctx: &Context,
    candidates: &[Candidate],
    pending: &[&Candidate],
    (summaries, answers): (&[Summary], &[bool]),
    (lock, manifest): (&mut Lockfile, &mut Manifest),
    source: &str,
) -> anyhow::Result<Vec<Added>> {
    let mut added = Vec::new();
    // By name (the first of each): `add --all` of 500 compared every pair.
    let (mut asked, mut summary_of) = (HashMap::new(), HashMap::new());
    for (p, a) in pending.iter().zip(answers) {
        asked.entry(p.locked.name.as_str()).or_insert(*a);
    }
    for s in summaries {
        summary_of.entry(s.name.as_str()).or_insert(s);
    }
    for c in candidates {
        let name = &c.locked.name;
        let approved = asked.get(name.as_str()).is_none_or(|a| *a);
        if !approved {
            ctx.ui.warn(format!(
                "`{name}` declined: keeping the version already locked"
            ));
        } else {
            let mut locked = c.locked.clone();
            match summary_of.get(name.as_str()) {
                Some(summary) => super::approval::record_approval(&mut locked, Some(summary), true),
                // Approved already for exactly this tree: what the lock
                // accepted for it still holds.
                None => {
                    locked.approved = Some(locked.tree);
                    locked.accepted_findings = lock
                        .get(name)
                        .map(|l| l.accepted().to_vec())
                        .unwrap_or_default();
                }
            }
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
        && crate::sources::location::looks_like_location(first)
    {
        source_text = Some(names.remove(0));
    }
    if let Some(n) = names
        .iter()
        .find(|n| !is_valid_name(n) && tagged_name(n).is_none())
    {
        return fail(Exit::Usage, crate::skill::not_a_skill_name(n));
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
/// The source is consumed: a large index's names and descriptions are moved
/// into the offers, not copied beside them.
fn offer_report(decl: &SourceDecl, opened: Loaded) -> AddReport {
    let mut skipped = Vec::new();
    if let Some(found) = opened.source.discovery() {
        for s in &found.skipped {
            skipped.push(NotAdded {
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
        offered: opened.source.into_offers(),
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
