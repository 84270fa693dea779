//! Materialising a commit's tree (or one folder of it) from the object
//! database, writing every blob ourselves.
//!
//! Not `git checkout` and not gitoxide's worktree checkout: those run
//! filters (LFS smudge, `ident`, eol conversion, `filter.*.process`) and
//! create symlinks. Here the bytes on disk are exactly the blobs, modes are
//! 0644 or 0755, and links and submodules are recorded, never created.

use std::path::Path;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::GitError;
use super::cache::CachedRepo;
use super::writer::{CheckoutLimits, CheckoutTree, Claim, SkipReason, SkippedEntry};
use crate::skill::printable;

/// Writes the tree of `commit` at `subpath` into `dest` (an existing, empty
/// folder). Returns the entries skipped, relative to `subpath`.
pub(crate) fn write_commit_tree(
    cached: &CachedRepo,
    url: &str,
    commit: ObjectId,
    subpath: Option<&str>,
    dest: &Path,
    limits: CheckoutLimits,
) -> Result<Vec<SkippedEntry>, GitError> {
    let repo = &cached.repo;
    let cache_err = |what: String, e: &dyn std::fmt::Display| cache_error(cached, what, e);
    let commit_obj = repo
        .find_commit(commit)
        .map_err(|e| cache_err(format!("commit {commit}"), &e))?;
    let mut tree_id: ObjectId = commit_obj
        .tree_id()
        .map_err(|e| cache_err(format!("the tree of {commit}"), &e))?
        .detach();

    if let Some(subpath) = subpath {
        tree_id = descend(cached, url, commit, tree_id, subpath)?;
    }

    let mut writer = CheckoutTree::new(dest, url, limits);
    // Depth-first with an explicit stack: a hostile tree cannot overflow ours.
    let mut pending = vec![(tree_id, String::new())];
    while let Some((id, parent)) = pending.pop() {
        let tree = repo
            .find_tree(id)
            .map_err(|e| cache_err(format!("tree {id}"), &e))?;
        let decoded = tree
            .decode()
            .map_err(|e| cache_err(format!("tree {id}"), &e))?;
        for entry in &decoded.entries {
            let path = match writer.claim(&parent, entry.filename) {
                Claim::Write(path) => path,
                Claim::Skipped => continue,
            };
            let oid = entry.oid.to_owned();
            match entry.mode.kind() {
                EntryKind::Tree => {
                    writer.dir(&path)?;
                    pending.push((oid, path));
                }
                kind @ (EntryKind::Blob | EntryKind::BlobExecutable) => {
                    let size = repo
                        .find_header(oid)
                        .map_err(|e| cache_err(format!("blob {oid}"), &e))?
                        .size();
                    let limit = writer.limits().max_file_bytes;
                    if size > limit {
                        writer.skip(path, SkipReason::TooLarge { size, limit });
                        continue;
                    }
                    let blob = repo
                        .find_blob(oid)
                        .map_err(|e| cache_err(format!("blob {oid}"), &e))?;
                    writer.file(
                        &path,
                        kind == EntryKind::BlobExecutable,
                        &blob.data[..],
                        |e| cache_err(format!("blob {oid}"), &e),
                    )?;
                }
                EntryKind::Link => {
                    let target = link_target(repo, oid);
                    writer.skip(path, SkipReason::Symlink { target });
                }
                EntryKind::Commit => {
                    writer.skip(
                        path,
                        SkipReason::Submodule {
                            commit: oid.to_string(),
                        },
                    );
                }
            }
        }
    }
    Ok(writer.finish())
}

/// The tree at `subpath` below `tree_id`, refusing a subpath that is not a
/// folder (a link, a submodule, nothing).
fn descend(
    cached: &CachedRepo,
    url: &str,
    commit: ObjectId,
    mut tree_id: ObjectId,
    subpath: &str,
) -> Result<ObjectId, GitError> {
    let repo = &cached.repo;
    let cache_err = |what: String, e: &dyn std::fmt::Display| cache_error(cached, what, e);
    let mut walked = String::new();
    for segment in subpath.split('/') {
        walked = super::writer::join(&walked, segment);
        let tree = repo
            .find_tree(tree_id)
            .map_err(|e| cache_err(format!("tree {tree_id}"), &e))?;
        let entry = tree
            .find_entry(segment)
            .map(|e| (e.mode().kind(), e.object_id()));
        tree_id = match entry {
            Some((EntryKind::Tree, id)) => id,
            Some((EntryKind::Link, _)) => {
                return Err(GitError::Refused {
                    url: url.to_owned(),
                    path: walked,
                    reason: "it is a symbolic link; skillpm never follows links".into(),
                });
            }
            Some((EntryKind::Commit, _)) => {
                return Err(GitError::Refused {
                    url: url.to_owned(),
                    path: walked,
                    reason: "it is a git submodule; submodules are not installed".into(),
                });
            }
            _ => {
                return Err(GitError::SubpathNotFound {
                    url: url.to_owned(),
                    commit: commit.to_string(),
                    subpath: subpath.to_owned(),
                });
            }
        };
    }
    Ok(tree_id)
}

/// An object the cached repository should hold could not be read.
fn cache_error(cached: &CachedRepo, what: String, e: &dyn std::fmt::Display) -> GitError {
    GitError::Cache {
        path: cached.path.clone(),
        message: format!("cannot read {what}: {e:#}"),
    }
}

/// What a link in the tree points at, printable and at most 1 KiB, for the
/// skip report (the link itself is never created).
fn link_target(repo: &gix::Repository, oid: ObjectId) -> String {
    repo.find_blob(oid)
        .map(|b| printable(&String::from_utf8_lossy(&b.data[..b.data.len().min(1024)])))
        .unwrap_or_default()
}
