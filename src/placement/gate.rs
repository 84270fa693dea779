//! The audit gate (docs/audit.md#the-gate): no tree is placed into an agent
//! folder unless the lock at hand accepts it. Every sync judges every tree
//! it will leave linked, whichever command asked (`add`, `install` in every
//! mode, `update`, `approve`, `enable`, `import`, the restore of an edited
//! copy): the scanner's findings for the tree (remembered per tree digest
//! and rule set, `store::verdicts`) against this lock entry's accepted
//! findings and this project's `[audit] fail-on`. What another project
//! accepted, or what was stored under a laxer `fail-on`, counts for
//! nothing here: the decision is made again from this lock every time.

use super::{PlacementSite, Tampered};
use crate::audit::gate::{blocking, refusal};
use crate::audit::{Finding, Severity};
use crate::fs::parallel;
use crate::policy::{Effective, PolicyError, Violation};
use crate::project::lock::LockedSkill;
use crate::store::{Store, Verdict};

/// The scanner's findings for each of `skills`' stored trees, in order:
/// remembered, or read now (every core). An entry that no longer hashes to
/// its name is moved aside and the whole call fails with [`Tampered`]
/// (exit 3; `install` fetches it again).
pub fn verdicts(store: &Store, skills: &[&LockedSkill]) -> anyhow::Result<Vec<Vec<Finding>>> {
    let judged = parallel::map(skills, |s| store.verdict(&s.tree));
    let mut out = Vec::with_capacity(skills.len());
    let mut bad = Tampered {
        names: Vec::new(),
        moved: Vec::new(),
    };
    for (s, verdict) in skills.iter().zip(judged) {
        match verdict? {
            Verdict::Findings(found) => out.push(found),
            Verdict::Modified(moved) => {
                bad.names.push(format!("`{}`", s.name));
                bad.moved.push(moved);
                out.push(Vec::new());
            }
        }
    }
    if bad.names.is_empty() {
        Ok(out)
    } else {
        Err(bad.into())
    }
}

/// The skills of `skills` this lock does not let through, each with the
/// findings that stop it: at or above `fail_on` and not accepted by its
/// lock entry for exactly its tree, and any of a severity the install
/// policy never accepts (docs/policy.md), accepted or not.
pub fn held_back<'s>(
    store: &Store,
    policy: &Effective,
    fail_on: Severity,
    skills: &[&'s LockedSkill],
) -> anyhow::Result<Vec<(&'s LockedSkill, Vec<Finding>)>> {
    let found = verdicts(store, skills)?;
    Ok(skills
        .iter()
        .zip(found)
        .filter_map(|(s, found)| {
            let mut stop: Vec<Finding> = blocking(&found, fail_on, s.accepted())
                .into_iter()
                .cloned()
                .collect();
            for f in found
                .iter()
                .filter(|f| policy.never_accepts(f.severity).is_some())
            {
                if !stop.contains(f) {
                    stop.push(f.clone());
                }
            }
            (!stop.is_empty()).then_some((*s, stop))
        })
        .collect())
}

/// What the gate refuses whatever is accepted: each finding of `found`
/// (skill `name`'s) whose own severity the policy never accepts.
fn never_accepted<'a>(
    policy: &'a Effective,
    name: &'a str,
    found: &'a [Finding],
) -> impl Iterator<Item = Violation> + 'a {
    found.iter().filter_map(move |f| {
        (policy.never_accepts(f.severity)).map(|r| Violation::finding(r, name, f))
    })
}

/// For `skillpm policy check`: the findings of `skills`' stored trees that
/// the policy never accepts, judged by their own severity as the gate
/// judges them (a finding the scanner raised above its rule's severity
/// too). A tree not in the store is judged by its accepted rules'
/// severities alone (`policy::check`); an accepted finding that judgement
/// already refuses is not said twice.
pub fn stored_never_accepted(
    store: &Store,
    policy: &Effective,
    skills: &[&LockedSkill],
) -> anyhow::Result<Vec<Violation>> {
    let stored: Vec<&LockedSkill> = (skills.iter().copied())
        .filter(|s| store.has_entry(&s.tree))
        .collect();
    let found = verdicts(store, &stored)?;
    let mut out = Vec::new();
    for (s, found) in stored.iter().zip(found) {
        let said = |f: &Finding| {
            s.accepted().contains(&f.key())
                && crate::audit::rules::rule(&f.rule)
                    .is_some_and(|r| policy.never_accepts(r.severity).is_some())
        };
        let fresh: Vec<Finding> = found.into_iter().filter(|f| !said(f)).collect();
        out.extend(never_accepted(policy, &s.name, &fresh));
    }
    Ok(out)
}

/// What the gate decides on, as one digest: the `fail-on` and, in order,
/// every tree with the findings its lock entry accepts. A later run with
/// the same digest (and rule set) has the same answer, so a no-op install
/// reads one record instead of one verdict per tree.
fn decision(fail_on: Severity, policy: &str, enabled: &[&LockedSkill]) -> crate::digest::Digest {
    let mut text = format!("gate 1 {fail_on}{policy}\n");
    let mut trees: Vec<(&LockedSkill, String)> =
        enabled.iter().map(|s| (*s, s.tree.hex())).collect();
    trees.sort_by(|a, b| a.1.cmp(&b.1));
    for (s, tree) in trees {
        text.push_str(&tree);
        for key in s.accepted() {
            // Length-prefixed: no set of keys reads as another.
            text.push_str(&format!(" {}:{key}", key.len()));
        }
        text.push('\n');
    }
    crate::digest::Digest::of_bytes(text.as_bytes())
}

/// The gate itself, run by [`super::sync_links`] before anything changes:
/// the install policy first (exit 3, [`super::check_policy`]), then the
/// audit: refuses (exit 5, naming skill, rule, file and line) when any of
/// `enabled` is held back, or exit 3 when what holds it back is a
/// severity the policy never accepts.
pub(super) fn check(site: &PlacementSite<'_>, enabled: &[&LockedSkill]) -> anyhow::Result<()> {
    super::check_policy(site, enabled)?;
    let fail_on = site.policy.fail_on(site.manifest.audit_fail_on());
    let decision = decision(fail_on, &site.policy.gate_key(), enabled);
    if site.store.gate_passed(&decision) {
        return Ok(());
    }
    let held = held_back(site.store, site.policy, fail_on, enabled)?;
    if held.is_empty() {
        site.store.remember_gate_pass(&decision);
        return Ok(());
    }
    let forbidden: Vec<Violation> = (held.iter())
        .flat_map(|(s, stop)| never_accepted(site.policy, &s.name, stop))
        .collect();
    if !forbidden.is_empty() {
        return Err(PolicyError::Violated {
            violations: forbidden,
        }
        .into());
    }
    let names: Vec<&str> = held.iter().map(|(s, _)| s.name.as_str()).collect();
    let refused: Vec<(String, String, Vec<&Finding>)> = held
        .iter()
        .map(|(s, stop)| {
            (
                s.name.clone(),
                s.tree.hex()[..12].to_owned(),
                stop.iter().collect(),
            )
        })
        .collect();
    let hint = format!(
        "run `skillpm approve {} --accept-findings` (it records the acceptance in skills.lock for this exact tree; review and commit it)",
        names.join(" ")
    );
    let mut error = refusal(&refused, fail_on, &hint);
    error.message.push_str(&still_placed(site, &names));
    Err(error.into())
}

/// What a refusal leaves in the agent folders: the links an earlier run
/// placed for the refused `names` (an acceptance dropped from the lock
/// since, or a rule set that now finds more). A refusal changes nothing,
/// so they stay, and an agent that reads its folder still loads them;
/// `skillpm mcp` and `show` withhold them (docs/audit.md#the-gate). Said,
/// with the command that unlinks them; empty when there are none.
fn still_placed(site: &PlacementSite<'_>, names: &[&str]) -> String {
    let placed: Vec<(String, std::path::PathBuf)> = (site.state.placed_links(site.root))
        .into_iter()
        .filter(|l| names.contains(&l.name.as_str()))
        .map(|l| (l.path(), l.name))
        .filter(|(path, _)| std::fs::symlink_metadata(path).is_ok())
        .map(|(path, name)| (name, path))
        .collect();
    if placed.is_empty() {
        return String::new();
    }
    let linked: Vec<&str> = (names.iter().copied())
        .filter(|n| placed.iter().any(|(name, _)| name == n))
        .collect();
    let paths: Vec<String> = placed
        .iter()
        .map(|(_, p)| p.display().to_string())
        .collect();
    let them = if linked.len() == 1 { "it" } else { "them" };
    format!(
        "\n  still linked from an earlier run, so agents that read these folders still load {them}: {}; `skillpm disable {}` unlinks {them}",
        paths.join(", "),
        linked.join(" "),
    )
}
