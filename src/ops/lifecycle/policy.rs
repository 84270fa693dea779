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
    let violations = super::place::with_site(&sess, |site| {
        crate::placement::policy_violations(site, &entries)
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
