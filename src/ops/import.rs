//! `skillpm import`: bring in skills another tool installed, so a team does
//! not start over. `crate::agents::other_tools` reads the other tools' records (never
//! changing them); each becomes an ordinary `skillpm add` of its source, and
//! what the link pass did with the other tool's folders is told in that
//! skill's row (`view::import`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Context;
use super::lifecycle::{self, AddOptions};
use crate::agents::other_tools::Found;
use crate::error::Exit;
use crate::view::import::{ImportReport, ImportedSkill};

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub dry_run: bool,
    pub yes: bool,
    /// `--replace`: take over the other tool's folders that differ (backed
    /// up first).
    pub replace: bool,
    /// `--accept-findings`: accept the audit findings of what is approved,
    /// as `add --accept-findings` does.
    pub accept_findings: bool,
}

pub fn import(ctx: &Context, opts: &ImportOptions) -> anyhow::Result<ImportReport> {
    let project = crate::project::find_project(&ctx.cwd, ctx.project.as_deref())
        .map(|p| p.root)
        .unwrap_or_else(|_| crate::project::find_project_root(&ctx.cwd));
    let env = crate::agents::Env::from_process();
    let state_home = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let (files, found) = crate::agents::other_tools::gather(&project, &env, state_home.as_deref())?;
    let mut report = ImportReport {
        dry_run: opts.dry_run,
        files,
        skills: Vec::new(),
    };
    if !opts.dry_run {
        policy_allows(&env, &project, &found)?;
    }
    // A record whose name is no skill name (the other tool's file is the
    // project's, anyone's to edit) is a failed row before anything is
    // written: it makes no skills.toml and reaches no source.
    let named = |f: &Found| f.all || crate::names::is_valid_skill_name(&f.name);
    if !opts.dry_run && found.iter().any(named) && !project.join("skills.toml").exists() {
        let mut init_ctx = ctx.clone();
        init_ctx.project = Some(project.clone());
        super::init::init(&init_ctx)?;
    }
    let project_root = project.clone();
    let mut add_ctx = ctx.clone();
    add_ctx.project = Some(project);
    add_ctx.keep_foreign = true;
    add_ctx.replace_foreign = opts.replace;
    let mut done = BTreeSet::new();
    // Every add places all the project's skills: what happened at a
    // skill's folders is told in that skill's row, whichever add did it.
    let mut all_links: Vec<lifecycle::LinkChanges> = Vec::new();
    let mut seen: Vec<(&str, String, String)> = Vec::new();
    for f in found {
        // One skill a tool placed in several agent folders (pnpm links each
        // approved skill into every one it detects) is one row.
        let record = (f.tool, f.name.clone(), f.source.clone());
        if seen.contains(&record) {
            continue;
        }
        seen.push(record);
        let mut row = ImportedSkill::planned(&f);
        if !named(&f) {
            row.status = "failed";
            row.detail = format!(
                "{}; correct or remove that record in {}",
                crate::skill::not_a_skill_name(&f.name),
                f.file.display()
            );
            report.skills.push(row);
        } else if !f.all && !done.insert(f.name.clone()) {
            row.status = "skipped";
            row.detail = "another record of this name was imported first".to_owned();
            report.skills.push(row);
        } else if opts.dry_run {
            row.found = crate::placement::existing_places(&project_root, &env, &f.name);
            report.skills.push(row);
        } else {
            let (rows, links) = add_found(&add_ctx, opts, &f, row)?;
            all_links.extend(links);
            // Names a whole-source record added are taken, too.
            done.extend(
                rows.iter()
                    .filter(|r| r.tree.is_some())
                    .map(|r| r.name.clone()),
            );
            report.skills.extend(rows);
        }
    }
    tell_placements(&mut report, &all_links);
    Ok(report)
}

/// The install policy (docs/policy.md) judges every record's source before
/// the first is added, so a refused one leaves nothing half imported
/// (exit 3, every violation named).
fn policy_allows(env: &crate::agents::Env, project: &Path, found: &[Found]) -> anyhow::Result<()> {
    let policy = crate::policy::load(env, project)?;
    if policy.is_empty() {
        return Ok(());
    }
    let manifest = project.join(crate::project::MANIFEST_FILE);
    let violations = (found.iter())
        .flat_map(|f| {
            let decl = crate::project::manifest::SourceDecl {
                name: f.name.clone(),
                url: f.source.clone(),
                ..Default::default()
            };
            policy.check_source(&decl, project, &manifest)
        })
        .collect();
    let lock = project.join(crate::project::LOCK_FILE);
    crate::policy::check::refuse(violations, &manifest, &lock)?;
    Ok(())
}

/// What the link passes did with the other tool's folders, in the row of
/// the skill each folder is named after.
fn tell_placements(report: &mut ImportReport, all_links: &[lifecycle::LinkChanges]) {
    for row in report.skills.iter_mut().filter(|r| r.tree.is_some()) {
        let name = row.name.clone();
        let named = |p: &Path| p.file_name().is_some_and(|n| n == name.as_str());
        for links in all_links {
            row.take_placements(links, &named);
        }
        // gh and pnpm record no commit, but their folder held exactly what
        // the lock now pins (gh's own keys aside): the same content.
        let placed_by_tool = [
            crate::agents::other_tools::GH_SKILL,
            crate::agents::other_tools::PNPM,
        ]
        .contains(&row.tool);
        if placed_by_tool && row.status == "re-resolved" && !row.adopted.is_empty() {
            row.status = "imported";
            row.detail = format!("{}; what it installed is what skills.lock pins", row.detail);
        }
    }
}

/// `skillpm add`s one record and reports it: one row, or for a whole-source
/// record one row per skill the source gave. A failure is a row too, except
/// a missing approval, which ends the import (nobody can answer for it).
fn add_found(
    ctx: &Context,
    import: &ImportOptions,
    f: &Found,
    mut row: ImportedSkill,
) -> anyhow::Result<(Vec<ImportedSkill>, Option<lifecycle::LinkChanges>)> {
    let opts = AddOptions {
        source: Some(f.source.clone()),
        names: if f.all {
            Vec::new()
        } else {
            vec![f.name.clone()]
        },
        all: f.all,
        yes: import.yes,
        git_ref: f.git_ref.clone(),
        accept_findings: import.accept_findings,
        ..Default::default()
    };
    match lifecycle::add(ctx, &opts) {
        Ok(added) if f.all => {
            let rows = (added.skills.iter())
                .map(|s| ImportedSkill {
                    name: s.name.clone(),
                    status: "re-resolved",
                    tree: Some(s.tree.to_string()),
                    ..row.clone()
                })
                .collect();
            Ok((rows, Some(added.links)))
        }
        Ok(added) => {
            let pinned = f
                .git_ref
                .as_deref()
                .is_some_and(crate::agents::other_tools::is_commit);
            row.status = if pinned { "imported" } else { "re-resolved" };
            row.tree = added.skills.first().map(|s| s.tree.to_string());
            Ok((vec![row], Some(added.links)))
        }
        Err(e) => {
            let code = crate::error::exit_code_of(&e);
            let policy = e.chain().any(|c| c.is::<crate::policy::PolicyError>());
            if code == Exit::Approval || policy {
                return Err(e);
            }
            row.status = if code == Exit::NotFound {
                "not-found"
            } else {
                "failed"
            };
            row.detail = format!("{e:#}");
            Ok((vec![row], None))
        }
    }
}
