//! `skillpm remove`, `approve`, `disable` and `enable`: change what the
//! project keeps or links, without resolving anything anew.

use std::collections::BTreeSet;

use super::approval::review;
use super::materialize::materialize;
use super::place::sync_links;
use super::session::{Session, not_in_project};
use crate::ops::Context;
use crate::project::lock::Lockfile;
use crate::project::manifest::SkillDecl;
use crate::sources::candidate::from_lock;
use crate::view::approval::Summary;
pub use crate::view::manage::ManageReport;

#[derive(Debug, Clone, Default)]
pub struct ApproveOptions {
    pub names: Vec<String>,
    pub yes: bool,
    /// `--accept-findings`: accept the audit findings of what is approved.
    pub accept_findings: bool,
}

fn known(sess: &Session<'_>, lock: &Lockfile, names: &[String]) -> anyhow::Result<()> {
    for n in names {
        if lock.get(n).is_none() && !sess.manifest.skills().contains_key(n) {
            let locked = lock.skills().iter().map(|s| s.name.as_str());
            let all: BTreeSet<&str> = locked
                .chain(sess.manifest.skills().keys().map(String::as_str))
                .collect();
            return Err(not_in_project(n, all.into_iter().collect()));
        }
    }
    Ok(())
}

/// Links what `lock` approves and writes the lock (and skills.toml, which
/// every action but `approve` changes).
fn finish(
    mut sess: Session<'_>,
    lock: Lockfile,
    action: &'static str,
    skills: Vec<String>,
    unchanged: Vec<String>,
    summaries: Vec<Summary>,
) -> anyhow::Result<ManageReport> {
    let enabled = sess.active(&lock);
    // A link never points at a store entry that is not there.
    materialize(&mut sess, &enabled)?;
    let (enabled, held_back) = if matches!(action, "remove" | "disable") {
        leave_out_held_back(&sess, enabled)?
    } else {
        (enabled, Vec::new())
    };
    let links = sync_links(&sess, &enabled)?;
    if action == "approve" {
        sess.save_lock(lock)?;
    } else {
        sess.save_manifest_and_lock(lock)?;
    }
    Ok(ManageReport {
        action,
        skills,
        unchanged,
        summaries,
        links,
        held_back,
    })
}

/// `enabled` without the skills the audit gate holds back, and their
/// names: `remove` and `disable` only take links away, so they must not
/// fail because *another* skill's tree is refused by a newer rule set or a
/// stricter `fail-on`. Such a skill is left unlinked (the gate still never
/// links it) and named in a warning (docs/audit.md#the-gate).
fn leave_out_held_back<'l>(
    sess: &Session<'_>,
    enabled: Vec<&'l crate::project::lock::LockedSkill>,
) -> anyhow::Result<(Vec<&'l crate::project::lock::LockedSkill>, Vec<String>)> {
    let fail_on = sess.policy.fail_on(sess.manifest.audit_fail_on());
    let held = crate::placement::gate::held_back(&sess.store, &sess.policy, fail_on, &enabled)?;
    let mut left_out = Vec::new();
    for (s, stop) in &held {
        let first = stop
            .first()
            .map(|f| format!(" ({} {} at {}:{})", f.severity, f.rule, f.file, f.line));
        sess.ctx.ui.warn(format!(
            "{} is held back by the audit{} and was left unlinked; review it with `skillpm audit`, then `skillpm approve {} --accept-findings` or `skillpm remove {}`",
            s.name,
            first.unwrap_or_default(),
            s.name,
            s.name
        ));
        left_out.push(s.name.clone());
    }
    let kept = (enabled.into_iter())
        .filter(|s| !left_out.contains(&s.name))
        .collect();
    Ok((kept, left_out))
}

pub fn remove(ctx: &Context, names: &[String]) -> anyhow::Result<ManageReport> {
    let mut sess = Session::open(ctx, false)?;
    let mut lock = sess.lock_or_empty();
    known(&sess, &lock, names)?;
    for n in names {
        lock.remove(n);
        sess.manifest.remove_skill(n)?;
    }
    finish(sess, lock, "remove", names.to_vec(), vec![], vec![])
}

pub fn approve(ctx: &Context, opts: &ApproveOptions) -> anyhow::Result<ManageReport> {
    let mut sess = Session::open(ctx, false)?;
    sess.accept_findings = opts.accept_findings;
    let mut lock = sess.lock_or_empty();
    known(&sess, &lock, &opts.names)?;
    let (pending, unchanged) = pending_of(&mut sess, &lock, &opts.names)?;
    let entries: Vec<_> = pending.iter().filter_map(|n| lock.get(n)).collect();
    let candidates = entries
        .iter()
        .map(|l| from_lock(&sess.store, l))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let reviewed = review(&sess, &candidates, &lock, opts.yes)?;
    let (summaries, answers) = (reviewed.summaries, reviewed.answers);
    let mut approved = Vec::new();
    for ((name, ok), summary) in pending.iter().zip(answers).zip(&summaries) {
        if ok && let Some(l) = lock.get_mut(name) {
            super::approval::record_approval(l, Some(summary), true);
            approved.push(name.clone());
        }
    }
    finish(sess, lock, "approve", approved, unchanged, summaries)
}

/// What `approve` asks about, of `names` (empty: every locked skill),
/// and which named ones it leaves as they are: an entry not approved for its tree, or
/// approved but held back by the audit gate (a newer rule set found more,
/// or `fail-on` is stricter now) needs a person; the rest is unchanged.
/// Each entry asked about is in the store afterwards.
fn pending_of(
    sess: &mut Session<'_>,
    lock: &Lockfile,
    names: &[String],
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let every = names.is_empty();
    let names: Vec<String> = if every {
        lock.skills().iter().map(|s| s.name.clone()).collect()
    } else {
        names.to_vec()
    };
    let entries: Vec<_> = names.iter().filter_map(|n| lock.get(n)).collect();
    // The install policy before any of them is fetched (docs/policy.md).
    super::place::check_policy(sess, &entries)?;
    materialize(sess, &entries)?;
    let approved: Vec<_> = entries
        .iter()
        .copied()
        .filter(|s| s.is_approved())
        .collect();
    let fail_on = sess.policy.fail_on(sess.manifest.audit_fail_on());
    let held = crate::placement::gate::held_back(&sess.store, &sess.policy, fail_on, &approved)?;
    let (pending, unchanged) = names.into_iter().partition(|n| {
        lock.get(n).is_some_and(|s| !s.is_approved()) || held.iter().any(|(s, _)| &s.name == n)
    });
    // Unnamed, only what needs a person is reported.
    Ok((pending, if every { Vec::new() } else { unchanged }))
}

fn set_enabled(ctx: &Context, names: &[String], enabled: bool) -> anyhow::Result<ManageReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    known(&sess, &lock, names)?;
    let mut changed = Vec::new();
    let mut unchanged = Vec::new();
    for n in names {
        let Some(decl) = sess.manifest.skills().get(n).cloned() else {
            return Err(not_in_project(
                n,
                sess.manifest.skills().keys().map(String::as_str).collect(),
            ));
        };
        if decl.enabled == enabled {
            unchanged.push(n.clone());
            continue;
        }
        sess.manifest.set_skill(n, &SkillDecl { enabled, ..decl })?;
        changed.push(n.clone());
    }
    let action = if enabled { "enable" } else { "disable" };
    finish(sess, lock, action, changed, unchanged, Vec::new())
}

pub fn disable(ctx: &Context, names: &[String]) -> anyhow::Result<ManageReport> {
    set_enabled(ctx, names, false)
}

pub fn enable(ctx: &Context, names: &[String]) -> anyhow::Result<ManageReport> {
    set_enabled(ctx, names, true)
}
