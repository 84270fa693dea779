//! `skillpm list --all`: every skill every agent can see from here, with its
//! scope, agent folder, validity and what shadows it.

use std::path::{Path, PathBuf};

use super::Context;
use crate::agents::roots::{self, Discovery, Env, ListedRoot, ScanLimits};
use crate::error::{Exit, OpError};
use crate::skill::Diagnostic;
use crate::view::discover::{DiscoveryReport, ListedDuplicate, ListedSkill};

/// The project folder for `ctx`: `--project` (relative to the working
/// directory; it must be an existing folder), else the nearest ancestor
/// holding `skills.toml`, else `.git`, else the working directory.
pub fn project_dir(ctx: &Context) -> Result<PathBuf, OpError> {
    let Some(given) = &ctx.project else {
        return Ok(crate::project::find_project_root(&ctx.cwd));
    };
    let why = match std::fs::canonicalize(ctx.cwd.join(given)) {
        Ok(dir) if dir.is_dir() => return Ok(dir),
        Ok(_) => "not a folder".to_owned(),
        Err(e) => e.to_string(),
    };
    Err(OpError::new(
        Exit::Usage,
        format!("--project {}: {why}", given.display()),
    ))
}

/// Discovery as `list`, `show` and the MCP server see it: every root of the
/// current project and user, default scan limits. Scan problems are
/// warned about on stderr and kept in the result.
pub fn discover_here(ctx: &Context) -> Result<Discovery, OpError> {
    let discovery = discover_quietly(ctx)?;
    for w in discovery.all_warnings() {
        ctx.ui.warn(w);
    }
    Ok(discovery)
}

/// The same discovery, its problems left to the caller's report (`doctor`
/// makes each one a finding; warning on stderr too would tell it twice).
pub fn discover_quietly(ctx: &Context) -> Result<Discovery, OpError> {
    Ok(roots::discover(
        &project_dir(ctx)?,
        &ctx.cwd,
        &Env::from_process(),
        ScanLimits::default(),
    ))
}

pub fn list(ctx: &Context) -> anyhow::Result<DiscoveryReport> {
    let d = discover_here(ctx)?;
    let warnings = d.all_warnings().cloned().collect();
    // Who else placed a skill there (gh skill, pnpm): the same records
    // `import` reads (`agents::other_tools`).
    let placed = crate::agents::other_tools::placed(&d.project, &Env::from_process());
    let placed_by = |path: &Path| {
        (placed.iter())
            .find(|f| f.file == path || f.file.parent() == Some(path))
            .map(|f| f.tool.to_owned())
    };
    Ok(DiscoveryReport {
        project: d.project,
        skills: d
            .skills
            .into_iter()
            .map(|s| ListedSkill {
                placed_by: placed_by(&s.path),
                valid: s.check.is_loadable(),
                description: s.check.skill.as_ref().map(|m| m.description.clone()),
                errors: relative(s.check.errors, &s.path),
                warnings: relative(s.check.warnings, &s.path),
                name: s.name,
                scope: s.scope,
                agent: s.agent,
                path: s.path,
                link_target: s.link_target,
                shadowed_by: s.shadowed_by,
            })
            .collect(),
        duplicates: d
            .duplicates
            .into_iter()
            .map(|x| ListedDuplicate {
                name: x.name,
                winner: x.winner,
                paths: x.paths,
                same_target: x.same_target,
            })
            .collect(),
        roots_scanned: d.roots.len(),
        roots: d
            .roots
            .iter()
            .filter(|r| r.exists)
            .map(ListedRoot::from)
            .collect(),
        warnings,
    })
}

fn relative(diagnostics: Vec<Diagnostic>, dir: &Path) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|d| d.relative_to(dir))
        .collect()
}
