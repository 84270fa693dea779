//! `skillpm policy check`: the project (skills.toml and the whole of
//! skills.lock) against the install policy of every level, for CI
//! (docs/policy.md#policy-check). Changes nothing.

use super::session::Session;
use crate::ops::Context;
use crate::project::lock::LockedSkill;
use crate::view::policy::{PolicyFileShown, PolicyReport};

pub fn policy_check(ctx: &Context) -> anyhow::Result<PolicyReport> {
    let sess = Session::open(ctx, false)?;
    let lock = sess.lock_or_empty();
    let entries: Vec<&LockedSkill> = lock.skills().iter().collect();
    // Judged like the gate: the rules of skills.toml and skills.lock, then
    // the stored trees' findings by their own severity.
    let violations = super::place::with_site(&sess, |site| {
        let mut found = crate::placement::policy_violations(site, &entries)?;
        if !site.policy.is_empty() {
            found.extend(crate::placement::gate::stored_never_accepted(
                site.store,
                site.policy,
                &entries,
            )?);
        }
        anyhow::Ok(found)
    })?;
    Ok(PolicyReport {
        files: (sess.policy.files.iter())
            .map(|(level, path)| PolicyFileShown {
                level: *level,
                path: path.clone(),
            })
            .collect(),
        rules: sess.policy.rules(),
        violations,
    })
}
