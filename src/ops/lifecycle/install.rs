//! `skillpm install [--locked | --frozen | --offline] [--yes]`: make the
//! roots match the lock exactly.

use super::approval::review;
use super::materialize::materialize;
use super::place::{check_policy, sync_links};
use super::session::Session;
use crate::error::{Exit, OpError};
use crate::ops::Context;
use crate::ops::fail;
use crate::placement::LinkChanges;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::sources::candidate::from_lock;
use crate::sources::load::resolve_by_source;
use crate::view::approval::Summary;

pub use crate::view::install::{InstallMode, InstallReport};

#[derive(Debug, Clone, Default)]
pub struct InstallOptions {
    pub mode: InstallMode,
    pub yes: bool,
    /// `--strict`: refuse skills `skillpm check` refuses.
    pub strict: bool,
}

fn lock_outdated(message: String) -> anyhow::Error {
    OpError::new(
        Exit::Locked,
        format!("{message}\n  run `skillpm install` without --locked/--frozen to update skills.lock, review and commit it"),
    )
    .into()
}

pub fn install(ctx: &Context, opts: &InstallOptions) -> anyhow::Result<InstallReport> {
    let mut ctx = ctx.clone();
    if opts.mode == InstallMode::Frozen {
        ctx.offline = true;
    }
    let ctx = &ctx;
    let strict = opts.mode != InstallMode::Normal;
    let mut sess = Session::open_checking_ahead(ctx, opts.strict)?;
    crate::placement::apply_choices(&ctx.agents, ctx.link_mode, &mut sess.manifest)?;
    // The install policy judges every source and lock entry before any is
    // read or fetched (docs/policy.md); the gate judges them again.
    let locked: Vec<&LockedSkill> = sess.lock.iter().flat_map(|l| l.skills()).collect();
    check_policy(&sess, &locked)?;
    let Some(mut lock) = sess.lock.clone() else {
        if strict {
            return Err(lock_outdated(format!(
                "{} does not exist",
                sess.lock_path().display()
            )));
        }
        return install_without_lock(&mut sess, opts);
    };
    let mut summaries = follow_manifest(&mut sess, &mut lock, strict, opts.yes)?;
    let all: Vec<_> = lock.skills().iter().collect();
    // Proves every entry (a folder entry's source and folder first), then
    // fetches what the store lacks; a folder must still hold its tree.
    let fetched = materialize(&mut sess, &all)?;
    crate::sources::folder::check_unchanged(&sess.project.root, lock.skills())?;
    judge_strictly(&sess, &lock)?;
    summaries.extend(approve_pending(&sess, &mut lock, strict, opts.yes)?);

    let enabled = sess.active(&lock);
    // Recorded for `cache gc` before placing: a new project's record is
    // flushed, and a flush after placement would write back every copy
    // just placed as well (ext4 data=ordered). Placed folders need no
    // durability; only the store entries do, and they are sealed already.
    sess.register_lock();
    let links = place_or_remake(&mut sess, &enabled)?;
    let disabled: Vec<String> = lock
        .skills()
        .iter()
        .filter(|s| !sess.is_enabled(&s.name))
        .map(|s| s.name.clone())
        .collect();
    let skills = lock.skills().len();
    let lock_written = if strict { false } else { sess.save_lock(lock)? };
    Ok(InstallReport {
        mode: opts.mode,
        skills,
        fetched,
        lock_written,
        summaries,
        links,
        disabled,
    })
}

/// `--strict`: every locked skill judged by every rule.
fn judge_strictly(sess: &Session<'_>, lock: &Lockfile) -> anyhow::Result<()> {
    if sess.level == crate::skill::Level::Strict {
        for s in lock.skills() {
            crate::sources::candidate::judge_locked(&sess.store, sess.level, s)?;
        }
    }
    Ok(())
}

/// Places the links of `enabled`. A stored tree changed under its name (an
/// edit through a hard link) was moved aside: it is made again from its
/// source, once, and placed.
fn place_or_remake(
    sess: &mut Session<'_>,
    enabled: &[&LockedSkill],
) -> anyhow::Result<LinkChanges> {
    match sync_links(sess, enabled) {
        Err(e) if e.downcast_ref::<crate::placement::Tampered>().is_some() => {
            sess.ctx.ui.warn(format!("{e:#}"));
            // Not re-made (offline without its artifact, source gone): the
            // tampering stays the reason (exit 3).
            materialize(sess, enabled)
                .map_err(|cause| e.context(format!("cannot fetch it again: {cause:#}")))?;
            sync_links(sess, enabled)
        }
        other => other,
    }
}

/// Brings `lock` to what the manifest asks for: drops what it no longer
/// asks for (or pins from another source) and resolves what the lock
/// lacks. `strict` (--locked/--frozen): any such difference is exit 6
/// instead. Returns the summaries of what was resolved.
fn follow_manifest(
    sess: &mut Session<'_>,
    lock: &mut Lockfile,
    strict: bool,
    yes: bool,
) -> anyhow::Result<Vec<Summary>> {
    let declared = sess.manifest.skills();
    let stale: Vec<String> = lock
        .skills()
        .iter()
        .filter(|s| declared.get(&s.name).is_none_or(|d| d.source != s.source))
        .map(|s| s.name.clone())
        .collect();
    let missing: Vec<(String, String)> = declared
        .iter()
        .filter(|(name, d)| lock.get(name).is_none_or(|l| l.source != d.source))
        .map(|(name, d)| (name.clone(), d.source.clone()))
        .collect();
    if strict && (!stale.is_empty() || !missing.is_empty()) {
        let mut parts = Vec::new();
        if !missing.is_empty() {
            let names: Vec<&str> = missing.iter().map(|(n, _)| n.as_str()).collect();
            parts.push(format!(
                "skills.toml asks for {} which skills.lock does not pin",
                names.join(", ")
            ));
        }
        if !stale.is_empty() {
            parts.push(format!(
                "skills.lock pins {} which skills.toml no longer asks for",
                stale.join(", ")
            ));
        }
        return Err(lock_outdated(format!(
            "skills.lock is out of date: {}",
            parts.join("; ")
        )));
    }
    for name in &stale {
        lock.remove(name);
    }
    if missing.is_empty() {
        return Ok(Vec::new());
    }
    resolve_declared(sess, &missing, lock, yes)
}

/// Entries not approved for exactly their tree need a person: asks (or
/// takes `--yes`) and records each approval in `lock`; a declined one is
/// not linked. `strict` may not record an approval (exit 7). Returns the
/// summaries shown.
fn approve_pending(
    sess: &Session<'_>,
    lock: &mut Lockfile,
    strict: bool,
    yes: bool,
) -> anyhow::Result<Vec<Summary>> {
    let pending: Vec<String> = lock
        .skills()
        .iter()
        .filter(|s| !s.is_approved() && sess.is_enabled(&s.name))
        .map(|s| s.name.clone())
        .collect();
    if pending.is_empty() {
        return Ok(Vec::new());
    }
    let candidates = pending
        .iter()
        .filter_map(|n| lock.get(n))
        .map(|l| from_lock(&sess.store, l))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if strict && yes {
        return fail(
            Exit::Approval,
            format!(
                "skills.lock has unapproved content for {} and --locked/--frozen may not record an approval; run `skillpm approve {}` (it writes the lock), review and commit it",
                pending.join(", "),
                pending.join(" ")
            ),
        );
    }
    let reviewed = review(sess, &candidates, lock, yes)?;
    let (pending_summaries, answers) = (reviewed.summaries, reviewed.answers);
    let mut declined = Vec::new();
    for ((name, ok), summary) in pending.iter().zip(answers).zip(&pending_summaries) {
        if !ok {
            declined.push(name.as_str());
        } else if let Some(l) = lock.get_mut(name) {
            super::approval::record_approval(l, Some(summary), true);
        }
    }
    if !declined.is_empty() {
        sess.ctx.ui.warn(format!(
            "not approved, so not linked: {}",
            declined.join(", ")
        ));
    }
    Ok(pending_summaries)
}

/// No lock yet: resolve every declared skill, approve, link, write the lock.
fn install_without_lock(
    sess: &mut Session<'_>,
    opts: &InstallOptions,
) -> anyhow::Result<InstallReport> {
    let declared: Vec<(String, String)> = sess
        .manifest
        .skills()
        .iter()
        .map(|(n, d)| (n.clone(), d.source.clone()))
        .collect();
    let mut lock = Lockfile::default();
    let summaries = resolve_declared(sess, &declared, &mut lock, opts.yes)?;
    let enabled = sess.active(&lock);
    let links = sync_links(sess, &enabled)?;
    let skills = lock.skills().len();
    let lock_written = sess.save_lock(lock)?;
    Ok(InstallReport {
        mode: opts.mode,
        skills,
        fetched: skills,
        lock_written,
        summaries,
        links,
        disabled: Vec::new(),
    })
}

/// Resolves `(name, source)` pairs source by source, asks for approval of
/// what is new, and writes their entries (approved or not) into `lock`.
fn resolve_declared(
    sess: &mut Session<'_>,
    wanted: &[(String, String)],
    lock: &mut Lockfile,
    yes: bool,
) -> anyhow::Result<Vec<Summary>> {
    let candidates = resolve_by_source(
        &mut sess.workspace(),
        wanted.iter().map(|(n, s)| (n.as_str(), s.as_str())),
    )?;
    let reviewed = review(sess, &candidates, lock, yes)?;
    let (summaries, answers) = (reviewed.summaries, reviewed.answers);
    for ((c, ok), summary) in candidates.into_iter().zip(answers).zip(&summaries) {
        let mut locked = c.locked;
        super::approval::record_approval(&mut locked, Some(summary), ok);
        lock.upsert(locked);
    }
    Ok(summaries)
}
