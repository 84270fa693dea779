//! Findings about the store: entries that no longer hash to their name.

use super::*;

/// Every entry of the store must still hash to its name: a hand-edited
/// entry changes every link to it at once. Read-only (`skillpm cache
/// verify` is what quarantines); entries linked from a root found here
/// are named with their links.
pub(super) fn check_store(discovery: &Discovery, findings: &mut Vec<Observation>) -> StoreReport {
    let linked = store_links(discovery);
    let entries = store_entries(&linked);
    let mut cache = HashCache::new();
    let mut corrupt = 0;
    let mut checked = 0;
    for (entry, expected) in &entries {
        let problem = match cache.tree(entry) {
            Ok(t) if t.digest == *expected => None,
            Ok(t) => Some(format!(
                "now hashes to {}: its files were changed in place",
                t.digest
            )),
            // Removed by a concurrent `cache gc` while we looked: not a problem.
            Err(_) if !entry.exists() => continue,
            Err(e) => Some(format!("cannot be hashed ({e})")),
        };
        checked += 1;
        let Some(problem) = problem else { continue };
        corrupt += 1;
        let users = match linked.get(entry) {
            Some(links) => format!(
                "; linked from {}, which serve the changed files",
                links
                    .iter()
                    .map(|l| l.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        };
        findings.push(finding(
            Urgency::Error,
            "store-corrupt",
            None,
            Some(entry),
            format!(
                "store entry {} {problem}{users}; run `skillpm cache verify` to quarantine it, then `skillpm install`",
                entry.display()
            ),
        ));
    }
    StoreReport {
        entries_checked: checked,
        corrupt,
    }
}

/// The skills found that are symlinks, by the store entry each points at.
fn store_links(discovery: &Discovery) -> BTreeMap<PathBuf, Vec<PathBuf>> {
    let mut linked: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for s in &discovery.skills {
        if let Ok(LinkState::Symlink { .. }) =
            crate::placement::link::inspect(&s.path, crate::placement::link::Record::None)
            && let Some(target) = &s.link_target
        {
            linked
                .entry(target.clone())
                .or_default()
                .push(s.path.clone());
        }
    }
    linked
}

/// Every entry of this machine's store, and every store entry `linked`
/// points at (links into a store elsewhere, another cache dir, are checked
/// too), with the digest its name says it holds.
fn store_entries(
    linked: &BTreeMap<PathBuf, Vec<PathBuf>>,
) -> BTreeMap<PathBuf, crate::digest::Digest> {
    let digest_of = |path: &Path| {
        let name = path.file_name()?.to_str()?;
        crate::digest::Digest::from_file_name(name)
    };
    let mut entries: BTreeMap<PathBuf, crate::digest::Digest> = BTreeMap::new();
    let store = crate::cache::cache_root().map(|cache| cache.join(crate::cache::layout::STORE));
    for item in store.iter().flat_map(std::fs::read_dir).flatten().flatten() {
        if let Some(d) = digest_of(&item.path()) {
            let path = std::fs::canonicalize(item.path()).unwrap_or_else(|_| item.path());
            entries.insert(path, d);
        }
    }
    for target in linked.keys() {
        if let Some(d) = digest_of(target) {
            entries.insert(target.clone(), d);
        }
    }
    entries
}
