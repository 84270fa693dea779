//! `skillpm list` (the project's skills and their state) and `skillpm verify`
//! (re-hash what agents would load; exit 3 on any drift): the placement
//! engine's findings (`placement::drift`) and each lock entry's proof, put
//! into the reports of `view::status`.

use super::place::{placements_for, targets, with_site};
use super::session::Session;
use crate::agents::roots::Agent;
use crate::catalog::{GateRules, HashCache};
use crate::ops::Context;
use crate::placement::drift::{self, Drift, SkillState};
use crate::project::lock::LockedSkill;
use crate::view::status::{ListReport, ListRow, ProvenanceReport, ProvenanceRow, VerifyReport};

pub fn list(ctx: &Context) -> anyhow::Result<ListReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let scope = sess.manifest.install().scope.root_scope();
    let agents: Vec<Agent> = targets.iter().flat_map(|t| t.agents.clone()).collect();
    let placements = placements_for(&sess, &targets);
    let locked: Vec<&LockedSkill> = lock.skills().iter().collect();
    let proofs = super::proof::prove_each(&mut sess, &locked, false)?;
    let gate = GateRules::of(
        Some(&sess.manifest),
        sess.policy.clone(),
        crate::cache::cache_root().ok(),
    );
    let mut findings = HashCache::new();
    let mut rows: Vec<ListRow> = with_site(&sess, |site| {
        (lock.skills().iter().zip(proofs))
            .map(|(s, proof)| {
                let enabled = sess.is_enabled(&s.name);
                let mut state = drift::state_of(site, &placements, &targets, s, enabled);
                if state == SkillState::Approved && refused(&sess, &gate, &mut findings, s) {
                    state = SkillState::Refused;
                }
                ListRow::locked(s, proof, scope, agents.clone(), state)
            })
            .collect()
    });
    for (name, decl) in sess.manifest.skills() {
        if lock.get(name).is_none() {
            rows.push(ListRow::declared(name, &decl.source, scope, agents.clone()));
        }
    }
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(ListReport {
        project: sess.project.root.clone(),
        skills: rows,
    })
}

/// Whether the audit gate refuses `s`'s tree under this lock, as `install`
/// and the serving commands judge it (docs/audit.md#the-gate): from the
/// verdict remembered for the tree, or its stored files read and hashed
/// to it from the very bytes audited. A tree over the project's size limit
/// is refused unread, as the serving commands refuse it; an entry that
/// cannot be read otherwise is not called refused here (its state says
/// what is wrong with it).
fn refused(sess: &Session, gate: &GateRules, findings: &mut HashCache, s: &LockedSkill) -> bool {
    let entry = sess.store.entry_path(&s.tree);
    match findings.findings(&entry, &s.tree, gate) {
        Ok(found) => {
            let refused = !gate.stopping(&found, s.accepted()).is_empty();
            if !refused {
                findings.remember(&s.tree, gate);
            }
            refused
        }
        Err(unread) => matches!(unread, crate::catalog::integrity::Unread::TooLarge { .. }),
    }
}

pub fn verify(ctx: &Context) -> anyhow::Result<VerifyReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let targets = targets(&sess)?;
    let placements = placements_for(&sess, &targets);
    let active = sess.active(&lock);
    let mut found: Vec<Drift> = Vec::new();
    // The lock itself must still be what its sources vouch for.
    let proofs = super::proof::prove_each(&mut sess, &active, true)?;
    for (s, proof) in active.iter().zip(proofs) {
        if let Err(e) = proof {
            found.push(Drift {
                skill: s.name.clone(),
                path: sess.lock_path(),
                kind: "provenance",
                detail: e.to_string(),
                files: Vec::new(),
            });
        }
    }
    with_site(&sess, |site| {
        for s in &active {
            for t in &targets {
                found.extend(drift::check_placed(site, &placements, t, s));
            }
        }
        found.extend(drift::shadowed(site, &targets, &active, &ctx.cwd));
    });
    Ok(VerifyReport::new(&active, found))
}

/// `skillpm verify --provenance`: every locked skill's chain, link by link.
pub fn verify_provenance(ctx: &Context) -> anyhow::Result<ProvenanceReport> {
    let mut sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let all: Vec<&LockedSkill> = lock.skills().iter().collect();
    let proofs = super::proof::prove_each(&mut sess, &all, true)?;
    let rows = (all.iter().zip(proofs))
        .map(|(s, proof)| ProvenanceRow::new(&s.name, proof))
        .collect();
    Ok(ProvenanceReport::new(rows))
}
