//! Bringing locked skills into the store exactly as the lock pins them
//! (docs/sources.md, each kind's fetch step): every entry's provenance chain
//! is proven first (`proof`), and whatever arrives must hash to the lock's
//! `tree`, or nothing is linked (exit 3).

use super::session::Session;
use crate::project::lock::LockedSkill;
use crate::store::EntryCheck;

/// Proves every skill of `skills` against its source, then makes sure each
/// has its store entry. Returns how many had to be fetched or re-imported.
/// An artifact with no record of the tree it unpacks to is unpacked again
/// (from the download cache when it is there), even if its tree is stored:
/// that is how the artifact → tree link is proven.
pub(crate) fn materialize(
    sess: &mut Session<'_>,
    skills: &[&LockedSkill],
) -> anyhow::Result<usize> {
    let mut recheck = super::proof::prove_all(sess, skills)?;
    for s in skills {
        if crate::sources::load::needs_fetch(&sess.workspace(), s)? {
            recheck.insert(s.name.clone());
        }
    }
    // Entries modified in place (a link is a way in) are quarantined and
    // fetched again. Re-hashing is most of a no-op install: use every core.
    let trees: Vec<_> = skills.iter().map(|s| s.tree).collect();
    let ahead = sess.set_ahead.take();
    let checked = sess.store.verify_entries(&trees, &sess.project.root, ahead);
    let mut tampered = crate::placement::Tampered {
        names: Vec::new(),
        moved: Vec::new(),
    };
    let mut missing: Vec<&LockedSkill> = Vec::new();
    for (s, check) in skills.iter().zip(checked) {
        match check? {
            EntryCheck::Present if !recheck.contains(&s.name) => continue,
            EntryCheck::Moved(moved) => {
                sess.ctx.ui.warn(format!(
                    "the stored content of `{}` was modified; moved it to {} and fetching it again",
                    s.name,
                    moved.display()
                ));
                tampered.names.push(format!("`{}`", s.name));
                tampered.moved.push(moved);
            }
            EntryCheck::Present | EntryCheck::Missing => {}
        }
        missing.push(s);
    }
    if missing.is_empty() {
        sess.store.seal_pending()?;
        return Ok(0);
    }
    if let Err(e) = crate::sources::load::fetch_locked(&mut sess.workspace(), &missing) {
        // An entry found modified and not made again: an integrity failure
        // (exit 3), whatever kept the fetch from happening.
        return Err(if tampered.names.is_empty() {
            e
        } else {
            anyhow::Error::new(tampered).context(format!("{e:#}"))
        });
    }
    // One flush for every entry added: durable before links and the lock
    // refer to them. (What arrived is judged by the placement gate, against
    // the lock at hand, before anything links it: docs/audit.md#the-gate.)
    sess.store.seal_pending()?;
    Ok(missing.len())
}
