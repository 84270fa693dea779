//! `skillpm audit [PATH…] [--sarif FILE] [--fail-on SEVERITY]`: the static
//! scanner over skill folders (or folders of skills), or, with no path,
//! over the project's locked skills as stored (docs/audit.md).

use std::path::{Path, PathBuf};

use super::Context;
use crate::audit::{self, Finding, Severity, sarif};
use crate::error::{Exit, OpError};
use crate::skill::SKILL_MD;
use crate::view::audit::{AuditReport, AuditedSkill};

#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    pub paths: Vec<PathBuf>,
    /// `--sarif FILE`: also write SARIF 2.1.0 there (`-` for stdout).
    pub sarif: Option<PathBuf>,
    /// `--fail-on`; unset: the project's `[audit] fail-on`, else `high`.
    pub fail_on: Option<Severity>,
    /// `--run`: also run each skill's scripts in the sandbox
    /// (docs/audit.md, "Running a skill: audit --run").
    pub run: bool,
    /// `--no-cache`: read every byte of every locked skill again, not the
    /// findings remembered for its tree (docs/audit.md#remembered-findings).
    pub no_cache: bool,
}

/// The sandbox's programs, or the error that says `--run` is unavailable
/// here (exit 1).
pub fn sandbox_tools() -> Result<crate::sandbox::Tools, crate::sandbox::SandboxError> {
    let path = std::env::var("PATH").ok();
    let home = std::env::var("HOME").ok();
    let deadline = std::env::var(crate::sandbox::DEADLINE_VAR).ok();
    crate::sandbox::tools(path.as_deref(), home.as_deref(), deadline.as_deref())
}

/// `skillpm __sandbox-init SPEC`: the sandbox's first process (hidden;
/// only `audit --run` starts it).
pub fn sandbox_init(spec: &str) -> anyhow::Result<crate::sandbox::init::SandboxStartReport> {
    crate::sandbox::init::run(spec).map_err(|e| {
        OpError::new(Exit::Usage, format!("__sandbox-init: unreadable spec: {e}")).into()
    })
}

pub fn audit(ctx: &Context, opts: &AuditOptions) -> anyhow::Result<AuditReport> {
    let project = crate::project::find_project(&ctx.cwd, ctx.project.as_deref()).ok();
    let manifest = project.as_ref().map(|p| p.load_manifest()).transpose()?;
    let fail_on = opts
        .fail_on
        .or_else(|| manifest.as_ref().map(|m| m.audit_fail_on()))
        .unwrap_or_default();
    let tools = opts.run.then(sandbox_tools).transpose()?;
    let mut skills = if !opts.paths.is_empty() {
        audit_paths(&ctx.cwd, &opts.paths)?
    } else if let Some(project) = project {
        audit_locked(&project, opts.no_cache)?
    } else {
        return super::fail(
            Exit::Usage,
            "no skills.toml here or above: pass the skill folders to audit (`skillpm audit PATH…`)",
        );
    };
    if let Some(tools) = &tools {
        // One sandbox per skill, as many at once as there are cores.
        let runs = crate::fs::parallel::map_at_once(&skills, |skill| {
            crate::sandbox::run_skill(tools, &ctx.cwd.join(&skill.path), &skill.name)
        });
        for (skill, run) in skills.iter_mut().zip(runs) {
            let mut run = run?;
            skill.findings.append(&mut run.findings);
            skill.run = Some(run);
        }
    }
    let report = AuditReport::new(fail_on, skills);
    if let Some(path) = &opts.sarif {
        write_sarif(ctx, &report, path)?;
    }
    Ok(report)
}

/// The project's locked skills, as stored, judged on every core: each
/// tree's findings as remembered for it (`reread`: read from its bytes
/// again instead; docs/audit.md#remembered-findings).
fn audit_locked(
    project: &crate::project::Project,
    reread: bool,
) -> anyhow::Result<Vec<AuditedSkill>> {
    let lock = crate::project::lock::Lockfile::load(&project.lock_path())?.unwrap_or_default();
    let store = crate::store::Store::open()?;
    for s in lock.skills() {
        if !store.has_entry(&s.tree) {
            return super::fail(
                Exit::Locked,
                format!(
                    "`{}` (tree {}) is not in the cache; run `skillpm install` first",
                    s.name, s.tree
                ),
            );
        }
    }
    let judged =
        crate::fs::parallel::map(lock.skills(), |s| stored_findings(&store, &s.tree, reread));
    let mut skills = Vec::new();
    for (s, judged) in lock.skills().iter().zip(judged) {
        let (findings, path) = judged?;
        skills.push(AuditedSkill {
            name: s.name.clone(),
            findings,
            path,
            tree: Some(s.tree),
            accepted: s.accepted().to_vec(),
            run: None,
        });
    }
    Ok(skills)
}

/// The findings of the stored tree `tree`, and the folder they are of.
/// Remembered findings (the verdict record of this tree and rule set,
/// MAC'd by the user's record key) are taken only while the entry's
/// marker holds (every file's size, mtime, ctime and inode as when it was
/// hashed), so they are the findings of the bytes there now; else the
/// entry is hashed first, and judged from its bytes (then remembered). An
/// entry that no longer hashes to its name is moved aside, as the gate
/// moves it, and the bytes moved are read. `reread` (`--no-cache`): every
/// byte is read, nothing remembered is used or written.
fn stored_findings(
    store: &crate::store::Store,
    tree: &crate::digest::Digest,
    reread: bool,
) -> anyhow::Result<(Vec<Finding>, PathBuf)> {
    let dir = store.entry_path(tree);
    if reread {
        return Ok((audit_folder(&dir)?, dir));
    }
    if store.sealed_entry(tree).is_some()
        && let Some(found) = store.remembered_verdict(tree)
    {
        return Ok((found, dir));
    }
    if let Some(moved) = store.verify_hashed(tree)? {
        return Ok((audit_folder(&moved)?, moved));
    }
    match store.verdict(tree)? {
        crate::store::Verdict::Findings(found) => Ok((found, dir)),
        crate::store::Verdict::Modified(moved) => Ok((audit_folder(&moved)?, moved)),
    }
}

/// The skill folders `paths` name (relative to `cwd`), judged on every
/// core (a collection's skills are independent, as stored ones are).
fn audit_paths(cwd: &Path, paths: &[PathBuf]) -> anyhow::Result<Vec<AuditedSkill>> {
    let mut folders = Vec::new();
    for given in paths {
        folders.extend(skill_folders(cwd, given)?);
    }
    let judged = crate::fs::parallel::map(&folders, |(_, shown)| audit_folder(&cwd.join(shown)));
    let mut skills = Vec::new();
    for ((name, path), findings) in folders.into_iter().zip(judged) {
        skills.push(AuditedSkill {
            name,
            findings: findings?,
            path,
            tree: None,
            accepted: Vec::new(),
            run: None,
        });
    }
    Ok(skills)
}

fn audit_folder(dir: &Path) -> anyhow::Result<Vec<Finding>> {
    audit::audit_dir(dir).map_err(|e| {
        OpError::new(Exit::Other, format!("cannot audit {}: {e}", dir.display())).into()
    })
}

fn write_sarif(ctx: &Context, report: &AuditReport, path: &Path) -> anyhow::Result<()> {
    let dirs: Vec<PathBuf> = report
        .skills
        .iter()
        .map(|s| ctx.cwd.join(&s.path))
        .collect();
    let audited: Vec<sarif::Audited<'_>> = report
        .skills
        .iter()
        .zip(&dirs)
        .map(|(s, dir)| sarif::Audited {
            name: &s.name,
            dir,
            findings: &s.findings,
        })
        .collect();
    let log = sarif::log(&audited, env!("CARGO_PKG_VERSION"));
    let mut text = serde_json::to_vec_pretty(&log).map_err(std::io::Error::other)?;
    text.push(b'\n');
    if path == Path::new("-") {
        ctx.ui.json(&log)?;
        return Ok(());
    }
    let target = ctx.cwd.join(path);
    crate::fs::write_atomic(&target, &text).map_err(|e| {
        OpError::new(
            Exit::Other,
            format!("cannot write SARIF to {}: {e}", target.display()),
        )
    })?;
    Ok(())
}

/// The skill folders one argument names, as (name, path to show): the
/// folder itself when it holds SKILL.md, else every skill folder found in
/// it the way `add` finds them (skills/, categories, marketplaces …),
/// including folders whose SKILL.md cannot be loaded (they are audited all
/// the same).
fn skill_folders(cwd: &Path, given: &Path) -> Result<Vec<(String, PathBuf)>, OpError> {
    let abs = cwd.join(given);
    if !abs.is_dir() {
        return Err(OpError::new(
            Exit::Usage,
            format!(
                "{} is not a folder; pass a skill folder (holding SKILL.md) or a folder of skills",
                given.display()
            ),
        ));
    }
    let folder_name = |p: &Path| {
        p.file_name()
            .map_or_else(|| ".".to_owned(), |n| n.to_string_lossy().into_owned())
    };
    if abs.join(SKILL_MD).is_file() {
        let name = crate::skill::parse_skill_md(
            &std::fs::read_to_string(abs.join(SKILL_MD)).unwrap_or_default(),
        )
        .map(|s| s.name)
        .unwrap_or_else(|_| folder_name(&abs));
        return Ok(vec![(name, given.to_owned())]);
    }
    let found = crate::skill::discover::discover_skills(&abs);
    let mut out: Vec<(String, PathBuf)> = found
        .skills
        .iter()
        .map(|s| (s.name.clone(), given.join(&s.path)))
        .chain(found.skipped.iter().map(|s| {
            let path = given.join(&s.path);
            (folder_name(&path), path)
        }))
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    if out.is_empty() {
        let why = (found.warnings.iter()).fold(String::new(), |all, w| all + "; " + w);
        return Err(OpError::new(
            Exit::NotFound,
            format!(
                "no skill folder (holding SKILL.md) in {}{why}; pass a skill folder or a folder of skills",
                crate::escape::path_field(given)
            ),
        ));
    }
    Ok(out)
}
