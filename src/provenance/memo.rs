//! A proof of a whole set of lock entries, remembered by the user who made
//! it (docs/threat-model.md#remembered-proofs).
//!
//! Proving 500 index entries reads and parses their index snapshots and
//! looks up 500 artifact → tree records: about a third of a no-op
//! `install`. When this user's skillpm already proved *exactly* these
//! entries against exactly these source declarations, from this project
//! folder and this cache, the proof is not made again. The memo is a record
//! of [`Records`] (an HMAC keyed in the user's state folder, not in the
//! cache), so a cache writer cannot forge one, and its key is a digest of
//! every byte the proof depended on, so any edit of the lock or the
//! manifest's sources misses it and proves in full.
//!
//! Only entries whose proof reads nothing but the cache are remembered:
//! index entries (a snapshot and a record, both content-addressed; a
//! publisher's kept bundle, verified against the trusted root whose digest
//! is part of the key) and
//! folder entries (whose folder is re-hashed outside the prover anyway).
//! Git, MCP and OCI entries are proven every run, because their proof may
//! read the network or refs that move.

use std::path::Path;

use serde::Serialize;

use crate::digest::Digest;
use crate::project::lock::{Format, LockedSkill, Lockfile};
use crate::project::manifest::{Manifest, SourceDecl};
use crate::store::unpacked::Records;
use crate::trust::sigstore::TrustedRoot;

/// The record kind: `state/proofs/lock-set/` of the cache.
const KIND: &str = "lock-set";
/// What a remembered proof says; bumping the version forgets every memo.
const PROVEN: &str = "proven v1";

/// Whether `entry`'s proof reads only the cache (so it may be remembered).
pub fn rememberable(entry: &LockedSkill) -> bool {
    matches!(
        entry.format,
        Format::Archive | Format::SkillMd | Format::Files | Format::Path
    )
}

/// Remembered proofs of sets of lock entries, in one cache.
pub struct ProofMemo {
    records: Records,
    key: String,
}

/// Everything a proof of `entries` depends on, in one canonical form.
#[derive(Serialize)]
struct Basis<'a> {
    version: &'static str,
    project: &'a Path,
    cache: &'a Path,
    sources: Vec<&'a SourceDecl>,
    /// The entries, unless they are exactly the rememberable entries of a
    /// lock read from its file, in its order: then the digest of its bytes
    /// (`lock`) stands for them, as they are what those bytes parse to
    /// (encoding 500 entries was a twentieth of a no-op install).
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<&'a [&'a LockedSkill]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lock: Option<Digest>,
    /// The refreshed Sigstore trusted root's digest, when an entry's
    /// publisher was proven against it (`skillpm trust update` may close a
    /// key's window: a proof against the old root is not reused).
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted_root: Option<Digest>,
}

impl ProofMemo {
    /// The memo for proving `entries` (all [`rememberable`]) of a project
    /// at `project_root` with `manifest`, in the cache at `cache_root`;
    /// `lock` is the lock they may all be from.
    /// `None` when the basis cannot be encoded (then nothing is skipped).
    pub fn for_entries(
        project_root: &Path,
        manifest: &Manifest,
        cache_root: &Path,
        entries: &[&LockedSkill],
        lock: Option<&Lockfile>,
    ) -> Option<ProofMemo> {
        let records = Records::proofs(cache_root, KIND);
        Self::in_records(records, project_root, manifest, cache_root, entries, lock)
    }

    fn in_records(
        records: Records,
        project_root: &Path,
        manifest: &Manifest,
        cache_root: &Path,
        entries: &[&LockedSkill],
        lock: Option<&Lockfile>,
    ) -> Option<ProofMemo> {
        let whole_lock = lock.and_then(|lock| {
            let bytes = lock.read_from()?;
            let in_lock = lock.skills().iter().filter(|s| rememberable(s));
            in_lock.eq(entries.iter().copied()).then_some(bytes)
        });
        let mut sources: Vec<&SourceDecl> = entries
            .iter()
            .filter_map(|e| manifest.source(&e.source))
            .collect();
        sources.sort_by(|a, b| a.name.cmp(&b.name));
        sources.dedup_by(|a, b| a.name == b.name);
        let trusted_root = (entries.iter().any(|e| e.publisher.is_some()))
            .then(crate::cache::state_root)
            .flatten()
            .and_then(|state| std::fs::read(TrustedRoot::refreshed_path(&state)).ok())
            .map(|bytes| Digest::of_bytes(&bytes));
        let basis = Basis {
            version: PROVEN,
            project: project_root,
            cache: cache_root,
            sources,
            entries: whole_lock.is_none().then_some(entries),
            lock: whole_lock,
            trusted_root,
        };
        let bytes = serde_json::to_vec(&basis).ok()?;
        Some(ProofMemo {
            records,
            key: Digest::of_bytes(&bytes).file_name(),
        })
    }

    /// Whether this user proved exactly this set before.
    pub fn holds(&self) -> bool {
        self.records.get(&self.key).as_deref() == Some(PROVEN)
    }

    /// Remembers that the set was proven in full, every artifact's tree
    /// recorded. Best effort: a memo that is not written only costs the
    /// next run a full proof.
    pub fn remember(&self) {
        let _ = self.records.put(&self.key, PROVEN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::RecordKey;

    fn entry(name: &str, tree: &[u8]) -> LockedSkill {
        let text = format!(
            "version = 1\n[[skill]]\nname = \"{name}\"\nsource = \"team\"\nformat = \"archive\"\ntree = \"{}\"\n",
            Digest::of_bytes(tree)
        );
        let lock = crate::project::lock::Lockfile::parse(&text, Path::new("skills.lock")).unwrap();
        lock.skills()[0].clone()
    }

    #[test]
    fn a_memo_holds_only_for_the_exact_entries_the_user_proved() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&tmp.path().join("key"));
        let dir = tmp.path().join("memos");
        let memo_of = |root: &Path, entries: &[&LockedSkill]| {
            let records = Records::new(dir.clone(), KIND, Some(key));
            let text = "[[source]]\nname = \"team\"\nurl = \"https://example.com/\"\n";
            let manifest = Manifest::parse(text, Path::new("skills.toml")).unwrap();
            ProofMemo::in_records(records, root, &manifest, tmp.path(), entries, None).unwrap()
        };
        let honest = [entry("a", b"1"), entry("b", b"2")];
        let honest: Vec<&LockedSkill> = honest.iter().collect();
        let memo = memo_of(tmp.path(), &honest);
        assert!(!memo.holds());
        memo.remember();
        assert!(memo.holds());
        // One field of one entry changed: another key, no memo.
        let edited = [entry("a", b"1"), entry("b", b"evil")];
        let edited: Vec<&LockedSkill> = edited.iter().collect();
        let forged = memo_of(tmp.path(), &edited);
        assert!(!forged.holds());
        // The honest memo's file copied under the edited set's name: its
        // MAC covers the honest key, so it reads as absent.
        std::fs::copy(dir.join(&memo.key), dir.join(&forged.key)).unwrap();
        assert!(!forged.holds());
        // Another project folder: another key.
        assert!(!memo_of(&tmp.path().join("p"), &honest).holds());
    }

    /// A lock read from its file stands for its entries by its bytes'
    /// digest, and only while they are exactly its entries: a lock changed
    /// after it was read, another lock file, or entries other than the
    /// lock's are each keyed by what they are, and find no memo.
    #[test]
    fn a_lock_stands_for_its_entries_only_while_they_are_what_it_read() {
        let tmp = tempfile::tempdir().unwrap();
        let key = RecordKey::leaked_in(&tmp.path().join("key"));
        let dir = tmp.path().join("memos");
        let text = "[[source]]\nname = \"team\"\nurl = \"https://example.com/\"\n";
        let manifest = Manifest::parse(text, Path::new("skills.toml")).unwrap();
        let memo_of = |entries: &[&LockedSkill], lock: Option<&Lockfile>| {
            let records = Records::new(dir.clone(), KIND, Some(key));
            ProofMemo::in_records(records, tmp.path(), &manifest, tmp.path(), entries, lock)
                .unwrap()
        };
        let lock_text = |trees: [&[u8]; 2]| {
            let mut text = "version = 1\n".to_owned();
            for (name, tree) in ["a", "b"].into_iter().zip(trees) {
                text.push_str(&format!(
                    "\n[[skill]]\nname = \"{name}\"\nsource = \"team\"\nformat = \"archive\"\ntree = \"{}\"\n",
                    Digest::of_bytes(tree)
                ));
            }
            text
        };
        let read = |text: &str| {
            let path = tmp.path().join("skills.lock");
            std::fs::write(&path, text).unwrap();
            Lockfile::load(&path).unwrap().unwrap()
        };
        let lock = read(&lock_text([b"1", b"2"]));
        assert!(lock.read_from().is_some());
        let all: Vec<&LockedSkill> = lock.skills().iter().collect();

        // Honest: proven once, then remembered by the lock's bytes.
        let memo = memo_of(&all, Some(&lock));
        assert!(!memo.holds());
        memo.remember();
        assert!(memo_of(&all, Some(&lock)).holds());
        assert!(!memo_of(&all, None).holds(), "keyed by the bytes");

        // The same lock changed after it was read: keyed by its entries.
        let mut edited = lock.clone();
        edited.get_mut("b").unwrap().tree = Digest::of_bytes(b"evil");
        assert!(edited.read_from().is_none());
        let edited_all: Vec<&LockedSkill> = edited.skills().iter().collect();
        assert!(!memo_of(&edited_all, Some(&edited)).holds());
        // Entries other than the lock's, with the honest lock beside them.
        assert!(!memo_of(&edited_all, Some(&lock)).holds());
        assert!(!memo_of(&all[..1], Some(&lock)).holds());
        // Another lock file.
        let other = read(&lock_text([b"1", b"evil"]));
        let other_all: Vec<&LockedSkill> = other.skills().iter().collect();
        assert!(!memo_of(&other_all, Some(&other)).holds());
    }
}
