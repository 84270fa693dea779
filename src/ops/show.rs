//! `skillpm show <name>`: load one skill by name as an agent's skill tool
//! does, and print what the model would receive.

use std::path::{Path, PathBuf};

use super::Context;
use super::discover::discover_here;
use crate::agents::roots::{Discovery, FoundSkill};
use crate::catalog::{Approvals, HashCache, Withheld, judge_placement};
use crate::error::{Exit, OpError};
use crate::ops::fail;
use crate::skill::{self, envelope};
use crate::view::show::ShowReport;

#[derive(Debug, Clone)]
pub struct ShowOptions {
    pub name: String,
    /// `--path`: load the skill in this folder (or at this SKILL.md),
    /// whatever its precedence, as Codex resolves a `[$name](path)` link.
    /// There is no fallback to the name: a path that holds no skill of
    /// that name is an error.
    pub path: Option<PathBuf>,
}

/// Errors: a name that is not a valid skill name (exit 2, nothing read);
/// no skill of that name (exit 8, listing the names available); only
/// invalid skills of that name (exit 5, naming the folder and the rule);
/// `--path` holding no skill, or one of another name (exit 8 / 2); a
/// skillpm link whose files no longer match what was installed and locked
/// (exit 3: an agent must never load tampered instructions); a skillpm
/// link the audit gate refuses under this lock (exit 5, naming the
/// findings: what `install` would not link is not shown as loadable).
pub fn show(ctx: &Context, opts: &ShowOptions) -> anyhow::Result<ShowReport> {
    let name = opts.name.as_str();
    // Checked before discovery: a name is joined onto paths nowhere, but a
    // traversal attempt deserves a refusal, not a search.
    if !skill::is_valid_name(name) {
        return fail(Exit::Usage, crate::skill::not_a_skill_name(name));
    }
    let discovery = discover_here(ctx)?;
    let by_path = opts
        .path
        .as_ref()
        .map(|path| find_by_path(&discovery, &ctx.cwd.join(path), name))
        .transpose()?;
    if let Some(bad) = by_path.filter(|s| !s.is_valid()) {
        return Err(invalid_skill(name, bad).into());
    }
    let Some(found) = by_path.or_else(|| discovery.winner(name)) else {
        return Err(not_found(&discovery, name));
    };
    let Some(md) = found.check.skill.as_ref() else {
        return fail(
            Exit::Other,
            format!("skill `{name}` has no readable SKILL.md"),
        );
    };
    refuse_if_tampered(ctx, &discovery, found)?;
    let files = envelope::sample_files(&found.path, envelope::MAX_LISTED_FILES);
    let shell_commands = md.shell_commands();
    if !shell_commands.is_empty() {
        ctx.ui.warn(format!(
            "`{name}` asks agents to run {} shell command(s) when it loads (shown unexpanded below, not run)",
            shell_commands.len()
        ));
    }
    Ok(ShowReport {
        name: md.name.clone(),
        description: md.description.clone(),
        scope: found.scope,
        agent: found.agent,
        path: found.path.clone(),
        base_url: envelope::base_url(&found.path),
        content: envelope::render(md, &found.path, &files),
        files,
        shell_commands,
    })
}

/// The error for a name no valid skill has: an invalid skill of that name
/// (exit 5), else the names available (exit 8).
fn not_found(discovery: &Discovery, name: &str) -> anyhow::Error {
    // An invalid skill may carry a wrong name; its folder name counts too.
    let named = |s: &&FoundSkill| s.name == name || s.path.file_name().is_some_and(|f| f == name);
    if let Some(bad) = discovery.skills.iter().find(named) {
        return invalid_skill(name, bad).into();
    }
    let available = discovery.available_names();
    let listing = if available.is_empty() {
        "no skills are installed in any scope; `skillpm list --all` shows the folders scanned"
            .to_owned()
    } else if available.len() <= 10 {
        format!("available: {}", available.join(", "))
    } else {
        format!(
            "{} (`skillpm list --all` shows all {})",
            crate::names::suggest(name, &available, 0),
            available.len()
        )
    };
    OpError::new(
        Exit::NotFound,
        format!("no skill named `{name}`; {listing}"),
    )
    .into()
}

fn invalid_skill(name: &str, bad: &FoundSkill) -> OpError {
    let why = bad
        .check
        .errors
        .first()
        .map(|e| e.message.clone())
        .unwrap_or_default();
    OpError::new(
        Exit::Unsafe,
        format!(
            "skill `{name}` at {} is invalid and cannot be loaded: {why}; run `skillpm check {}` for every problem",
            bad.path.display(),
            bad.path.display()
        ),
    )
}

/// The discovered skill in folder `path` (or whose SKILL.md `path` is),
/// which must be named `name`.
fn find_by_path<'a>(
    discovery: &'a Discovery,
    path: &Path,
    name: &str,
) -> Result<&'a FoundSkill, OpError> {
    let mut folder = path.to_path_buf();
    if folder
        .file_name()
        .is_some_and(|f| f.eq_ignore_ascii_case(skill::SKILL_MD))
    {
        folder.pop();
    }
    let wanted = std::fs::canonicalize(&folder).unwrap_or(folder);
    let found = discovery
        .skills
        .iter()
        .find(|s| s.path == wanted || std::fs::canonicalize(&s.path).is_ok_and(|p| p == wanted));
    match found {
        Some(s) if s.name == name => Ok(s),
        Some(s) => Err(OpError::new(
            Exit::Usage,
            format!(
                "{} holds skill `{}`, not `{name}`: run `skillpm show {} --path {}`",
                path.display(),
                s.name,
                s.name,
                path.display()
            ),
        )),
        None => Err(OpError::new(
            Exit::NotFound,
            format!(
                "no skill agents can see is at {}; `skillpm list --all` shows the skills found and their paths (or drop --path to load `{name}` by name)",
                path.display()
            ),
        )),
    }
}

/// A skillpm link must still hold what was installed (and, when a lock
/// lists it, what the lock pins); otherwise the instructions were changed
/// after approval and are refused. A link nobody approved is shown with a
/// warning: `show` is for people, but `skillpm mcp` will not serve it.
fn refuse_if_tampered(
    ctx: &Context,
    discovery: &Discovery,
    found: &FoundSkill,
) -> anyhow::Result<()> {
    let approvals = Approvals::load(
        &discovery.project,
        crate::cache::cache_root().ok().as_deref(),
    )?;
    if !crate::placement::link::inspect(&found.path, approvals.record(&found.path))
        .is_ok_and(|s| s.is_managed())
    {
        return Ok(());
    }
    let placement = judge_placement(found, &approvals, &mut HashCache::new());
    match placement.problem {
        None => Ok(()),
        Some(
            problem @ (Withheld::Modified { .. }
            | Withheld::Refused { .. }
            | Withheld::TooLarge { .. }),
        ) => fail(problem.exit(), problem.explain(&found.name, &found.path)),
        Some(Withheld::Invalid { message }) => fail(Exit::Other, message),
        Some(other) => {
            ctx.ui.warn(format!(
                "{} (shown anyway; `skillpm mcp` will not serve it)",
                other.explain(&found.name, &found.path)
            ));
            Ok(())
        }
    }
}
