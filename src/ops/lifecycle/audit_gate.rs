//! The audit between download and link (docs/audit.md): every skill whose
//! content is new to this project or to this machine is scanned before it
//! is linked. A finding at or above `[audit] fail-on` (default `high`) that
//! skills.lock does not accept for exactly this tree refuses the command
//! (exit 5, naming skill, rule, file and line); nothing is linked and the
//! lock is not written. A person accepts findings with `--accept-findings`
//! or at the approval prompt; the acceptance is recorded next to the
//! approval, as `rule@file:line` keys bound to the approved tree.
//!
//! Content that is approved and already in the store is not scanned again:
//! it was scanned when it was approved or fetched, and a no-op install
//! reads no file.

use anyhow::Context as _;

use super::session::Session;
use crate::approve::Summary;
use crate::audit::gate::{blocking, keys_at_or_above, refusal};
use crate::audit::{self, Finding};
use crate::project::lock::LockedSkill;

/// The findings of the stored content at `dir`; with `run` (the project's
/// `[audit] run = true`), also what its scripts do in the sandbox.
pub(crate) fn scan(
    dir: &std::path::Path,
    name: &str,
    run: Option<&crate::sandbox::Tools>,
) -> anyhow::Result<Vec<Finding>> {
    let mut found = audit::audit_dir(dir)
        .with_context(|| format!("cannot audit `{name}` ({})", dir.display()))?;
    if let Some(tools) = run {
        found.append(&mut crate::sandbox::run_skill(tools, dir, name)?.findings);
    }
    Ok(found)
}

/// The sandbox when skills.toml asks for `[audit] run = true`; its absence
/// is an error (exit 1) before anything is changed.
pub(crate) fn run_tools(sess: &Session<'_>) -> anyhow::Result<Option<crate::sandbox::Tools>> {
    if !sess.manifest.audit_run() {
        return Ok(None);
    }
    Ok(Some(crate::ops::audit::sandbox_tools()?))
}

/// Scans each summarised candidate, records the findings in its summary,
/// and decides which findings are accepted: those skills.lock already
/// accepts for this tree, all of them with `--accept-findings`, or, when a
/// person can be asked, what they accept at the prompt. Any other finding
/// at or above `fail_on` refuses the whole command (exit 5). Summaries are
/// printed by the caller before this asks anything.
pub(crate) fn accept(
    sess: &Session<'_>,
    summaries: &mut [Summary],
    yes: bool,
) -> anyhow::Result<()> {
    let fail_on = sess.manifest.audit_fail_on();
    let ui = &sess.ctx.ui;
    let mut refused = Vec::new();
    for s in summaries.iter_mut() {
        let already: Vec<String> = s.accepted_findings.clone();
        let stop = blocking(&s.findings, fail_on, &already);
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
            refused.push((s.name.clone(), short.to_owned(), stop));
        }
    }
    if !refused.is_empty() {
        return Err(refusal(&refused, fail_on).into());
    }
    Ok(())
}

/// Approved entries that were just fetched into the store (a fresh
/// machine, CI): scanned before they are linked, and refused (exit 5)
/// unless skills.lock accepts every finding at or above `fail-on`.
pub(crate) fn check_fetched(sess: &Session<'_>, fetched: &[&LockedSkill]) -> anyhow::Result<()> {
    let fail_on = sess.manifest.audit_fail_on();
    let approved: Vec<&LockedSkill> = fetched
        .iter()
        .copied()
        .filter(|s| s.is_approved())
        .collect();
    let tools = run_tools(sess)?;
    let scanned = crate::fs::parallel::map(&approved, |s| {
        scan(&sess.store.entry_path(&s.tree), &s.name, tools.as_ref())
    });
    let mut findings = Vec::new();
    for (s, found) in approved.iter().zip(scanned) {
        findings.push((s, found?));
    }
    let refused: Vec<(String, String, Vec<&Finding>)> = findings
        .iter()
        .filter_map(|(s, found)| {
            let stop = blocking(found, fail_on, s.accepted());
            (!stop.is_empty()).then(|| (s.name.clone(), s.tree.hex()[..12].to_owned(), stop))
        })
        .collect();
    if refused.is_empty() {
        Ok(())
    } else {
        Err(refusal(&refused, fail_on).into())
    }
}
