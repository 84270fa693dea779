//! Bringing locked skills into the store exactly as the lock pins them:
//! artifacts by their digest, v0.1.0 file lists by the tree digest, git
//! skills by their commit. Every entry's provenance chain is proven first
//! (`proof`), and whatever arrives must hash to the lock's `tree`, or
//! nothing is linked (exit 3).

use std::collections::BTreeMap;

use anyhow::Context as _;

use super::Session;
use super::candidate::{Opened, git_options, import_fetched, open_source, shown_path};
use crate::digest::Digest;
use crate::error::{Exit, OpError};
use crate::fetch::DownloadSpec;
use crate::git::{self, GitSpec};
use crate::ops::fail;
use crate::project::lock::{Format, LockedSkill};
use crate::provenance::Unpacked;
use crate::source::{self, Source};
use crate::unpack::ArtifactKind;

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
    for s in skills.iter().filter(|s| s.format == Format::Mcp) {
        if !super::mcp_source::proven_here(sess, s)? {
            recheck.insert(s.name.clone());
        }
    }
    // Entries modified in place (a link is a way in) are quarantined and
    // fetched again. Re-hashing is most of a no-op install: use every core.
    let store = &sess.store;
    let checked = super::parallel::map(skills, |s| store.verify_entry(&s.tree));
    for (s, moved) in skills.iter().zip(checked) {
        if let Some(moved) = moved? {
            sess.ctx.ui.warn(format!(
                "the stored content of `{}` was modified; moved it to {} and fetching it again",
                s.name,
                moved.display()
            ));
        }
    }
    let missing: Vec<&LockedSkill> = skills
        .iter()
        .copied()
        .filter(|s| !sess.store.has_entry(&s.tree) || recheck.contains(&s.name))
        .collect();
    if missing.is_empty() {
        sess.store.seal_pending()?;
        return Ok(0);
    }
    let (artifacts, others): (Vec<&LockedSkill>, Vec<&LockedSkill>) = missing
        .iter()
        .partition(|s| matches!(s.format, Format::Archive | Format::SkillMd));
    fetch_artifacts(sess, &artifacts)?;
    let mut by_source: BTreeMap<&str, Vec<&LockedSkill>> = BTreeMap::new();
    for s in &others {
        by_source.entry(s.source.as_str()).or_default().push(s);
    }
    for (_, group) in by_source {
        match group[0].format {
            Format::Git => fetch_git(sess, &group)?,
            Format::Mcp => super::mcp_source::fetch_locked(sess, &group)?,
            Format::Oci => super::oci_source::fetch_locked(sess, &group)?,
            Format::Path => fetch_folders(sess, &group)?,
            _ => fetch_file_lists(sess, &group)?,
        }
    }
    // One flush for every entry added: durable before links and the lock
    // refer to them.
    sess.store.seal_pending()?;
    // New to this machine: scanned before anything links it.
    super::audit_gate::check_fetched(sess, &missing)?;
    Ok(missing.len())
}

/// The folder a folder-source skill is read from: the lock's `url` (the
/// source as skills.toml names it) joined with its `subpath`.
pub(crate) fn locked_folder(
    sess: &Session<'_>,
    skill: &LockedSkill,
) -> anyhow::Result<std::path::PathBuf> {
    let url = skill.url.as_deref().unwrap_or("");
    let base = super::candidate::local_folder(url, &sess.project.root).ok_or_else(|| {
        OpError::new(
            Exit::NotFound,
            format!(
                "`{}` comes from the folder `{url}`, which is not there any more; restore it or `skillpm remove {}`",
                skill.name, skill.name
            ),
        )
    })?;
    let sub = super::candidate::clean_subpath(skill.subpath.as_deref())?;
    super::candidate::folder_dir(&base, sub.as_deref())
        .with_context(|| format!("the folder of `{}`", skill.name))
}

/// The tree digest a folder-source skill has on disk now, when it differs
/// from the lock's (`None`: unchanged). Symlinks anywhere in it are refused.
pub(crate) fn folder_drift(
    sess: &Session<'_>,
    skill: &LockedSkill,
) -> anyhow::Result<Option<Digest>> {
    let dir = locked_folder(sess, skill)?;
    let now = crate::digest::tree_digest(&dir)
        .with_context(|| format!("cannot hash the folder of `{}`", skill.name))?;
    Ok((now != skill.tree).then_some(now))
}

/// Imports folder-source skills from their folders; what is there must
/// still hash to the lock's tree (a changed folder is drift: `update`).
fn fetch_folders(sess: &mut Session<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    for s in group {
        let dir = locked_folder(sess, s)?;
        let label = dir.display().to_string();
        let entry = sess.store.import_dir(&dir, &label, &s.name, &sess.limits)?;
        if entry.digest != s.tree {
            return fail(
                Exit::Locked,
                format!(
                    "the folder of `{}` ({label}) changed since skills.lock was written:\n  locked tree {}\n  folder now  {}\n  run `skillpm update {}` to review the change",
                    s.name, s.tree, entry.digest, s.name
                ),
            );
        }
        let _ = sess.state.save_tree(&entry.tree);
    }
    Ok(())
}

/// Content that arrived (hashing to `actual`) must be what the lock pins.
pub(crate) fn check_tree(skill: &LockedSkill, actual: Digest, from: &str) -> anyhow::Result<()> {
    if actual == skill.tree {
        return Ok(());
    }
    fail(
        Exit::Integrity,
        format!(
            "`{}` from {from} does not match skills.lock:\n  expected tree {}\n  actual tree   {actual}\n  the published content changed without a new lock; run `skillpm update {}` to review the change",
            skill.name, skill.tree, skill.name
        ),
    )
}

fn auth_for(sess: &Session<'_>, source_name: &str) -> anyhow::Result<Option<crate::fetch::Auth>> {
    Ok(match sess.manifest.source(source_name) {
        Some(decl) => Source::from_decl(decl, &sess.project.root)?.auth,
        None => None,
    })
}

fn fetch_artifacts(sess: &mut Session<'_>, skills: &[&LockedSkill]) -> anyhow::Result<()> {
    if skills.is_empty() {
        return Ok(());
    }
    let mut specs = Vec::with_capacity(skills.len());
    for s in skills {
        let (Some(url), Some(artifact)) = (&s.url, s.artifact) else {
            return fail(
                Exit::Usage,
                format!(
                    "skills.lock entry `{}` has format `{}` but no url or artifact digest; run `skillpm update {}`",
                    s.name,
                    s.format.as_str(),
                    s.name
                ),
            );
        };
        let url = sess
            .resolve_lock_url(url)
            .with_context(|| format!("skills.lock entry `{}` has an invalid url", s.name))?;
        specs.push(DownloadSpec::new(url, Some(artifact)).with_auth(auth_for(sess, &s.source)?));
    }
    let bar = sess.ctx.ui.bar(specs.len() as u64, "Downloading", false);
    let results = sess.fetcher()?.download_all(specs, &bar);
    bar.finish_and_clear();
    let mut jobs = Vec::with_capacity(skills.len());
    for (s, result) in skills.iter().zip(results) {
        let downloaded = result.with_context(|| format!("cannot fetch `{}`", s.name))?;
        let kind = match s.format {
            Format::SkillMd => ArtifactKind::SkillMd,
            _ => match source::detect_archive(
                downloaded.content_type.as_deref(),
                &downloaded.url,
                &downloaded.path,
            ) {
                Some(kind) => kind,
                None => {
                    return fail(
                        Exit::Unsafe,
                        format!("{}: not a .zip or .tar.gz archive", downloaded.url),
                    );
                }
            },
        };
        jobs.push((*s, kind, downloaded.path, downloaded.url.to_string()));
    }
    // Unpacking is independent per skill; errors are reported in lock order.
    let (store, limits) = (&sess.store, &sess.limits);
    let imported = super::parallel::map(&jobs, |(s, kind, path, label)| {
        store.import_artifact(*kind, path, label, &s.name, limits)
    });
    for ((s, _, _, label), entry) in jobs.iter().zip(imported) {
        let entry = entry?;
        check_tree(s, entry.digest, label)?;
        let _ = sess.state.save_tree(&entry.tree);
        if let Some(artifact) = &s.artifact {
            let _ = Unpacked::in_cache(sess.store.root()).record(artifact, &entry.digest);
        }
    }
    Ok(())
}

fn fetch_file_lists(sess: &mut Session<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let source_name = group[0].source.as_str();
    let decl = sess.manifest.require_source(source_name)?.clone();
    let opened = open_source(sess, &decl)?;
    let Opened::Index { resolved, .. } = &opened else {
        return fail(
            Exit::Usage,
            format!(
                "source `{source_name}` is a git source but skills.lock says its skills come from an index; run `skillpm update`"
            ),
        );
    };
    let mut requests = Vec::new();
    for s in group {
        let entry = resolved
            .index
            .entry(&s.name)
            .ok_or_else(|| opened.missing(&s.name))?;
        requests.push(resolved.request(entry));
    }
    let bar = sess.ctx.ui.bar(0, "Downloading", false);
    let results = source::download_entries(sess.fetcher()?, &requests, &bar);
    bar.finish_and_clear();
    for ((s, request), result) in group.iter().zip(&requests).zip(results) {
        let fetched = result.with_context(|| format!("cannot fetch `{}`", s.name))?;
        let (entry, _, _) = import_fetched(sess, request.entry, &fetched)?;
        check_tree(s, entry.digest, resolved.index_url.as_str())?;
        let _ = sess.state.save_tree(&entry.tree);
    }
    Ok(())
}

/// Checks out each pinned commit once for all the skills it holds (one
/// archive download on GitHub, however many skills a marketplace repository
/// gives), at the deepest folder they share.
fn fetch_git(sess: &mut Session<'_>, group: &[&LockedSkill]) -> anyhow::Result<()> {
    let mut by_commit: BTreeMap<(&str, &str), Vec<&LockedSkill>> = BTreeMap::new();
    for s in group {
        let (Some(url), Some(commit)) = (&s.url, &s.commit) else {
            return fail(
                Exit::Usage,
                format!(
                    "skills.lock entry `{}` is a git skill without url or commit; run `skillpm update {}`",
                    s.name, s.name
                ),
            );
        };
        by_commit.entry((url, commit)).or_default().push(s);
    }
    for ((url, commit), skills) in by_commit {
        let common = common_folder(skills.iter().map(|s| s.subpath.as_deref()));
        let spec = GitSpec::from_lock(url, common.as_deref())?;
        let opts = match sess.manifest.source(&skills[0].source) {
            Some(decl) => git_options(sess, decl)?,
            None => {
                git::GitOptions::new(sess.ctx.offline, None)?.allowing_http(sess.ctx.allow_http)
            }
        };
        sess.ctx.ui.status(
            "Fetching",
            format!("{} at {}", spec, &commit[..commit.len().min(12)]),
        );
        let checkout = git::checkout(&spec, commit, &sess.store.tmp_dir(), &opts)?;
        for w in &checkout.warnings {
            sess.ctx.ui.warn(w);
        }
        for s in skills {
            let subpath = s.subpath.as_deref().unwrap_or("");
            let rel = match &common {
                Some(c) => subpath
                    .strip_prefix(c.as_str())
                    .unwrap_or(subpath)
                    .trim_start_matches('/'),
                None => subpath,
            };
            let dir = checkout.skill_dir(rel)?;
            let label = format!("{url}@{commit} ({})", shown_path(subpath));
            let entry = sess.store.import_dir(&dir, &label, &s.name, &sess.limits)?;
            check_tree(s, entry.digest, &label)?;
            let _ = sess.state.save_tree(&entry.tree);
            let key = Unpacked::git_key(url, commit, s.subpath.as_deref());
            let _ = Unpacked::in_cache(sess.store.root()).record(&key, &entry.digest);
        }
    }
    Ok(())
}

/// The deepest folder holding every subpath; `None` (the repository root)
/// when one of them is the root or they share nothing.
fn common_folder<'a>(mut subpaths: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    let first: Vec<&str> = subpaths.next()??.split('/').collect();
    let mut common = first;
    for sub in subpaths {
        let parts: Vec<&str> = sub?.split('/').collect();
        let shared = common
            .iter()
            .zip(&parts)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(shared);
    }
    (!common.is_empty()).then(|| common.join("/"))
}

#[cfg(test)]
mod tests {
    use super::common_folder;

    #[test]
    fn common_folders() {
        let f = |subs: &[Option<&str>]| common_folder(subs.iter().copied());
        assert_eq!(f(&[Some("skills/pdf")]).as_deref(), Some("skills/pdf"));
        assert_eq!(
            f(&[Some("plugins/a/skills/pdf"), Some("plugins/a/skills/xlsx")]).as_deref(),
            Some("plugins/a/skills")
        );
        assert_eq!(
            f(&[Some("skills/pdf"), Some("skills/pdf-x")]).as_deref(),
            Some("skills")
        );
        assert_eq!(f(&[Some("a/x"), Some("b/x")]), None);
        assert_eq!(f(&[Some("a/x"), None]), None);
        assert_eq!(f(&[None]), None);
    }
}
