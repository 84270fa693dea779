//! The audit's verdict on each stored tree, remembered (docs/audit.md#the-gate).
//!
//! A verdict is the list of findings the scanner made for one tree digest
//! under one rule set ([`crate::audit::ruleset`]); whether it stops a skill
//! is not part of it, but decided each time from the lock at hand (its
//! accepted findings) and the project's `fail-on`. Verdicts are kept in
//! `state/verdicts/`, one authenticated record each (the
//! cache's one record mechanism, [`super::unpacked::Records`], keyed by the
//! user's record key): a record written without the key, or made by
//! another rule set, reads as absent and the tree is scanned again.
//!
//! A verdict is recorded only for content this process hashed to the
//! tree's name first ([`Store::verify_hashed`]), so the memo can never bind
//! the findings of other bytes to a digest.
//!
//! An entry this process just created is judged from the bytes it wrote
//! (the ones its digest was computed over), kept in memory up to a budget
//! ([`Unjudged`]), rather than read back from the entry: the read-back was
//! a quarter of a cold 500-skill folder add's system calls
//! (docs/performance.md#what-the-measurements-decided).
//!
//! A run's verdicts are written together, as one batch file of MAC'd lines
//! (`state/verdicts/batch-…`, [`Records::batched`]), when the store is
//! dropped: one file per run instead of one per tree. Records of the
//! earlier form, `state/verdicts/sha256-<tree>`, are still read.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::unpacked::Records;
use super::{Store, StoreError};
use crate::audit::{self, Finding};
use crate::digest::Digest;
use crate::trust::RecordKey;
use crate::unpack;

/// The bytes of entries this process created and has not judged yet.
#[derive(Debug, Default)]
pub(super) struct Unjudged {
    trees: std::collections::HashMap<Digest, std::sync::Arc<unpack::FilesAsWritten>>,
    bytes: usize,
}

/// At most this many bytes of entries wait in memory for their verdicts;
/// beyond it an entry is read back when judged (an add whose verdicts all
/// come after its downloads keeps peak memory flat).
const WRITTEN_BUDGET: usize = 8 << 20;

/// In `state/`: one record per judged tree.
pub(super) const VERDICTS: &str = "verdicts";

/// In `state/`: one record per set of trees the gate let through together.
pub(super) const PASSES: &str = "gate-passes";

/// What judging a stored tree gave.
#[derive(Debug)]
pub enum Verdict {
    /// The scanner's findings (remembered, or read just now).
    Findings(Vec<Finding>),
    /// The entry no longer hashed to its name and was moved aside (to the
    /// path given): nothing of it may be placed.
    Modified(PathBuf),
}

#[derive(Serialize, Deserialize)]
struct Remembered {
    rules: String,
    findings: Vec<Finding>,
}

/// The findings remembered for `tree` under this rule set in the cache at
/// `cache_root`, if an authentic record holds them, without opening the
/// store (and so without taking its lock): for the commands that hand
/// placed skills to agents (`skillpm mcp`, `show`; `catalog`), which judge
/// a placed tree as the gate would.
pub fn remembered_in(cache_root: &std::path::Path, tree: &Digest) -> Option<Vec<Finding>> {
    read_remembered(
        &verdict_records(&cache_root.join(crate::cache::layout::STATE)),
        tree,
    )
}

/// Remembers `findings` for `tree` in the cache at `cache_root`, with the
/// run's batch ([`super::unpacked::flush_batches`] writes it), for a
/// caller that made them from bytes it hashed to `tree` itself
/// (`catalog::HashCache::remember`). Best effort, as every verdict record.
pub fn remember_in(cache_root: &std::path::Path, tree: &Digest, findings: &[Finding]) {
    let record = Remembered {
        rules: audit::ruleset().to_owned(),
        findings: findings.to_vec(),
    };
    if let Ok(text) = serde_json::to_string(&record) {
        let records = verdict_records(&cache_root.join(crate::cache::layout::STATE));
        let _ = records.put(&tree.file_name(), &text);
    }
}

/// The verdict records of the state folder `state`, one batch file per run.
fn verdict_records(state: &std::path::Path) -> Records {
    Records::batched(state.join(VERDICTS), "verdict", RecordKey::user())
}

fn read_remembered(records: &Records, tree: &Digest) -> Option<Vec<Finding>> {
    let text = records.get(&tree.file_name())?;
    let record: Remembered = serde_json::from_str(&text).ok()?;
    (record.rules == audit::ruleset()).then_some(record.findings)
}

impl Store {
    fn verdicts(&self) -> Records {
        verdict_records(&self.state_dir())
    }

    fn passes(&self) -> Records {
        Records::new(
            self.state_dir().join(PASSES),
            "gate-pass",
            RecordKey::user(),
        )
    }

    /// Whether the gate let through, under this rule set, exactly the
    /// decision named by `decision` (a digest the caller makes of every
    /// tree, its accepted findings and the `fail-on`; docs/audit.md#the-gate).
    /// One authenticated record stands for the 500 verdicts of a no-op
    /// install; a forged or another rule set's record reads as absent.
    pub fn gate_passed(&self, decision: &Digest) -> bool {
        self.passes()
            .get(&decision.file_name())
            .is_some_and(|rules| rules == audit::ruleset())
    }

    /// Remembers that the gate let `decision` through (best effort: one
    /// not kept is judged again from the per-tree verdicts next time).
    pub fn remember_gate_pass(&self, decision: &Digest) {
        let _ = self.passes().put(&decision.file_name(), audit::ruleset());
    }

    /// The findings remembered for `tree` under this rule set, if any.
    pub fn remembered_verdict(&self, tree: &Digest) -> Option<Vec<Finding>> {
        read_remembered(&self.verdicts(), tree)
    }

    /// The scanner's findings for the stored tree `tree`: remembered, or
    /// (after hashing the entry, unless this process already did) read
    /// from every file of the entry and remembered.
    pub fn verdict(&self, tree: &Digest) -> Result<Verdict, StoreError> {
        let known = self.judged.lock().ok().and_then(|j| j.get(tree).cloned());
        if let Some(findings) = known {
            return Ok(Verdict::Findings(findings));
        }
        if let Some(findings) = self.remembered_verdict(tree) {
            self.judged_here(tree, &findings);
            return Ok(Verdict::Findings(findings));
        }
        if let Some(moved) = self.verify_hashed(tree)? {
            return Ok(Verdict::Modified(moved));
        }
        let findings = match self.take_written(tree) {
            Some(files) => {
                audit::audit_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
            }
            None => {
                let path = self.entry_path(tree);
                audit::audit_dir(&path).map_err(|source| StoreError::Io {
                    action: "audit",
                    path,
                    source,
                })?
            }
        };
        let record = Remembered {
            rules: audit::ruleset().to_owned(),
            findings,
        };
        if let Ok(text) = serde_json::to_string(&record) {
            // Best effort: a verdict not kept is made again next time.
            let _ = self.verdicts().put(&tree.file_name(), &text);
        }
        self.judged_here(tree, &record.findings);
        Ok(Verdict::Findings(record.findings))
    }

    /// Keeps the bytes of the entry `tree` this process just created (its
    /// files as written, sorted by path) for its verdict, while the bytes
    /// kept total at most [`WRITTEN_BUDGET`].
    pub(super) fn keep_written(&self, tree: Digest, files: unpack::FilesAsWritten) {
        let size: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
        if let Ok(mut written) = self.written.lock()
            && written.bytes + size <= WRITTEN_BUDGET
        {
            written.bytes += size;
            written.trees.insert(tree, std::sync::Arc::new(files));
        }
    }

    /// The files of the entry `tree` as this process wrote them (sorted by
    /// path), while they wait for its verdict: what a check of the new
    /// entry reads instead of the copy (`skill::check_skill_copy`).
    pub fn written(&self, tree: &Digest) -> Option<std::sync::Arc<unpack::FilesAsWritten>> {
        let written = self.written.lock().ok()?;
        written.trees.get(tree).cloned()
    }

    /// The bytes kept for `tree`, which leave memory with this call.
    fn take_written(&self, tree: &Digest) -> Option<std::sync::Arc<unpack::FilesAsWritten>> {
        let mut written = self.written.lock().ok()?;
        let files = written.trees.remove(tree)?;
        written.bytes -= files.iter().map(|(_, bytes)| bytes.len()).sum::<usize>();
        Some(files)
    }

    /// Keeps `findings` as this process's answer for `tree`.
    fn judged_here(&self, tree: &Digest, findings: &[Finding]) {
        if let Ok(mut judged) = self.judged.lock() {
            judged.insert(*tree, findings.to_vec());
        }
    }
}
