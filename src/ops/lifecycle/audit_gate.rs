//! Accepting audit findings on the way into a project (docs/audit.md): the
//! one place a person accepts findings, with `--accept-findings` or at the
//! prompt after the approval summary. A finding at or above `[audit]
//! fail-on` (default `high`) that skills.lock does not accept for exactly
//! this tree refuses the command (exit 5, naming skill, rule, file and
//! line); nothing is linked and the lock is not written. `add --all`
//! instead holds such a skill back (named in `skipped`) and adds the rest.
//! The acceptance is recorded next to the approval, as `rule@file:line`
//! keys bound to the approved tree.
//!
//! Whatever is accepted here, the placement gate
//! (`crate::placement::gate`) judges every tree again against the lock
//! being written before it links anything, in every command.

use super::session::Session;
use crate::audit::Finding;
use crate::audit::gate::{ACCEPT_FLAG, blocking, keys_at_or_above, refusal};
use crate::view::approval::Summary;

/// The summaries the audit held back (`add --all`): each one's index, with
/// the findings that stop it.
pub(crate) type HeldBack = Vec<(usize, Vec<Finding>)>;

/// The sandbox when skills.toml asks for `[audit] run = true`; its absence
/// is an error (exit 1) before anything is changed.
pub(crate) fn run_tools(sess: &Session<'_>) -> anyhow::Result<Option<crate::sandbox::Tools>> {
    if !sess.manifest.audit_run() {
        return Ok(None);
    }
    Ok(Some(crate::ops::audit::sandbox_tools()?))
}

/// Decides which findings of each summary (its `findings` filled in) are
/// accepted: those skills.lock already accepts for this tree, all of them
/// with `--accept-findings`, or, when a person can be asked, what they
/// accept at the prompt. Any other finding at or above `fail_on` refuses
/// the whole command (exit 5), or with `sess.hold_back` holds that skill
/// back: returns the indices of the summaries held back, each with the
/// findings that stop it. Summaries are printed by the caller before
/// this asks anything.
pub(crate) fn accept(
    sess: &Session<'_>,
    summaries: &mut [Summary],
    yes: bool,
) -> anyhow::Result<HeldBack> {
    let fail_on = sess.manifest.audit_fail_on();
    let ui = &sess.ctx.ui;
    let mut refused: Vec<(usize, String, String, Vec<Finding>)> = Vec::new();
    for (i, s) in summaries.iter_mut().enumerate() {
        let already: Vec<String> = s.accepted_findings.clone();
        let stop: Vec<Finding> = blocking(&s.findings, fail_on, &already)
            .into_iter()
            .cloned()
            .collect();
        if stop.is_empty() {
            s.accepted_findings = keys_at_or_above(&s.findings, fail_on)
                .into_iter()
                .filter(|k| already.contains(k))
                .collect();
            continue;
        }
        let short = &s.tree.hex()[..12];
        let accepted = sess.accept_findings
            || (ui.interactive
                && !yes
                && ui.confirm(
                    &format!(
                        "Accept the {} audit finding{} at or above `{fail_on}` in {} (tree {short})?",
                        stop.len(),
                        crate::view::plural(stop.len()),
                        s.name
                    ),
                    "--accept-findings",
                )?);
        if accepted {
            s.accepted_findings = keys_at_or_above(&s.findings, fail_on);
        } else {
            refused.push((i, s.name.clone(), short.to_owned(), stop));
        }
    }
    if sess.hold_back {
        return Ok(refused.into_iter().map(|(i, .., stop)| (i, stop)).collect());
    }
    if refused.is_empty() {
        return Ok(Vec::new());
    }
    let parts: Vec<(String, String, Vec<&Finding>)> = refused
        .iter()
        .map(|(_, name, tree, stop)| (name.clone(), tree.clone(), stop.iter().collect()))
        .collect();
    Err(refusal(&parts, fail_on, ACCEPT_FLAG).into())
}
