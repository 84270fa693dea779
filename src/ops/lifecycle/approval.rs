//! Asking for approval (docs/design.md#approval): show the summary of every tree that is
//! not yet approved, then ask per skill, accept all with `--yes`, or stop
//! with exit 7 when nobody can be asked.

use super::audit_gate::HeldBack;
use super::session::Session;
use crate::error::Exit;
use crate::ops::fail;
use crate::project::lock::{LockedSkill, Lockfile};
use crate::sources::candidate::{Candidate, read_stored_skill, trust_of};
use crate::view::approval::{self, Previous, Summary};

/// What [`review`] settled: per candidate its summary and whether it was
/// approved; with `sess.hold_back` (`add --all`), also the candidates the
/// audit held back (their index, with the findings that stop each; never
/// approved).
pub(crate) struct Review {
    pub summaries: Vec<Summary>,
    pub answers: Vec<bool>,
    pub held: HeldBack,
}

/// Shows the summary of each candidate (compared with its entry in `lock`)
/// and returns them with, per candidate, whether it was approved.
pub(crate) fn review<'c>(
    sess: &Session<'_>,
    candidates: impl IntoIterator<Item = &'c Candidate>,
    lock: &Lockfile,
    yes: bool,
) -> anyhow::Result<Review> {
    let candidates: Vec<&Candidate> = candidates.into_iter().collect();
    // The scanner's verdicts (remembered, or read now on every core).
    let locked: Vec<&LockedSkill> = candidates.iter().map(|c| &c.locked).collect();
    let mut found = crate::placement::gate::verdicts(&sess.store, &locked)?;
    // With `[audit] run = true`, also what each skill's scripts do in the
    // sandbox (docs/audit.md#running-a-skill-audit---run).
    if let Some(tools) = super::audit_gate::run_tools(sess)? {
        let ran = crate::fs::parallel::map_at_once(&candidates, |c| {
            crate::sandbox::run_skill(&tools, &c.entry.path, &c.locked.name)
        });
        for (findings, ran) in found.iter_mut().zip(ran) {
            findings.append(&mut ran?.findings);
        }
    }
    let mut summaries = Vec::new();
    for (c, findings) in candidates.into_iter().zip(found) {
        let previous = lock.get(&c.locked.name);
        let mut summary = summary_for(sess, c, previous);
        summary.findings = findings;
        // What the lock accepts for exactly this tree still holds.
        summary.accepted_findings = previous
            .filter(|p| p.tree == c.locked.tree)
            .map(|p| p.accepted().to_vec())
            .unwrap_or_default();
        summaries.push(summary);
    }
    let (answers, held) = decide(sess, &mut summaries, yes)?;
    Ok(Review {
        summaries,
        answers,
        held,
    })
}

/// Writes an approval into a lock entry: the approved tree and the audit
/// findings accepted with it (`summary` is the one shown for `locked`).
pub(crate) fn record_approval(locked: &mut LockedSkill, summary: Option<&Summary>, approved: bool) {
    if approved {
        locked.approved = Some(locked.tree);
        locked.accepted_findings = summary
            .filter(|s| s.tree == locked.tree)
            .map(|s| s.accepted_findings.clone())
            .unwrap_or_default();
    } else {
        locked.approved = None;
        locked.accepted_findings = Vec::new();
    }
}

/// The summary of `c`, compared with `previous` (the approved lock entry)
/// when there is one and it differs.
fn summary_for(sess: &Session<'_>, c: &Candidate, previous: Option<&LockedSkill>) -> Summary {
    let prev_tree = previous.and_then(|p| p.approved);
    let prev_hashed = prev_tree.and_then(|t| sess.store.remembered_tree(&t));
    let prev_skill = prev_tree
        .filter(|t| sess.store.has_entry(t))
        .and_then(|t| read_stored_skill(&sess.store.entry_path(&t), &c.locked.name).ok())
        .map(|(s, _)| s);
    let url = c.locked.url.clone().unwrap_or_default();
    approval::summarize(&approval::ApprovalFacts {
        name: &c.locked.name,
        source: &c.locked.source,
        url: &url,
        trust: trust_of(&c.locked),
        artifact: c.locked.artifact,
        tree: &c.entry.tree,
        skill: &c.skill,
        dependencies: c.dependencies.clone(),
        previous: prev_tree
            .filter(|t| *t != c.locked.tree)
            .map(|tree| Previous {
                tree,
                hashed: prev_hashed.as_ref(),
                skill: prev_skill.as_ref(),
                signer: previous.and_then(|p| p.signer.clone()),
            }),
        publisher: c.locked.publisher.as_ref().map(|p| {
            format!(
                "{} (issuer {}, log entry {})",
                p.identity, p.issuer, p.log_index
            )
        }),
    })
}

/// Shows each summary, settles its audit findings (refusing with exit 5
/// what nobody accepts, or holding it back) and returns, per summary,
/// whether it was approved, and what was held back.
fn decide(
    sess: &Session<'_>,
    summaries: &mut [Summary],
    yes: bool,
) -> anyhow::Result<(Vec<bool>, HeldBack)> {
    if summaries.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let ui = &sess.ctx.ui;
    // The full summary is for a person deciding (asked now, or told to
    // pass `--yes` below), for every change of approved content (what an
    // update changes is always shown), for audit findings above `low`
    // (docs/audit.md), and for `-v`; a `--yes` run of new skills approves
    // what its one line per skill names (`--json` keeps every summary).
    for s in summaries.iter() {
        let flagged = s
            .findings
            .iter()
            .any(|f| f.severity > crate::audit::Severity::Low);
        if !yes || ui.verbose || s.update.is_some() || flagged {
            ui.info(s.render(&|text, sgr| ui.paint(text, sgr)).trim_end());
        }
    }
    let held = super::audit_gate::accept(sess, summaries, yes)?;
    let asked = |i: usize| !held.iter().any(|(h, _)| *h == i);
    if yes {
        return Ok(((0..summaries.len()).map(asked).collect(), held));
    }
    if !ui.interactive {
        let names: Vec<&str> = (summaries.iter().enumerate())
            .filter(|(i, _)| asked(*i))
            .map(|(_, s)| s.name.as_str())
            .collect();
        if names.is_empty() {
            return Ok((vec![false; summaries.len()], held));
        }
        return fail(
            Exit::Approval,
            format!(
                "approval required for {} and there is no terminal to ask on: review the summary above, then pass `--yes` to approve exactly these tree digests",
                names.join(", ")
            ),
        );
    }
    let answers = (summaries.iter().enumerate())
        .map(|(i, s)| {
            if !asked(i) {
                return Ok(false);
            }
            let short = &s.tree.hex()[..12];
            Ok(ui.confirm(&format!("Approve {} (tree {short})?", s.name), "--yes")?)
        })
        .collect::<anyhow::Result<Vec<bool>>>()?;
    Ok((answers, held))
}
