//! Links from agent skill roots into the store (DESIGN §8).
//!
//! A link is `<root>/<name>` → `<cache>/store/sha256-<hex>`: a symlink made
//! under a temp name and renamed over the old one, so enabling, disabling and
//! upgrading are atomic. Where symlinks are impossible, a copy marked with
//! [`COPY_MARKER`] stands in. skillpm only ever replaces or removes what it
//! made: a symlink into a store, or a folder carrying the marker.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::digest::{Digest, HashedTree, TreeHasher};
use crate::error::{Classify, Exit};
use crate::fs::unique_suffix;

/// File inside a copied skill folder that marks it as skillpm's; it holds the
/// tree digest. It is excluded from the tree digest of the copy.
pub const COPY_MARKER: &str = ".skillpm-copy";

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(
        "{path} already exists and was not created by skillpm (it is {what}); skillpm will not touch it.\n  skillpm wanted to link it to {wanted}\n  move or delete {path} yourself, then run the command again"
    )]
    Conflict {
        path: PathBuf,
        what: &'static str,
        wanted: PathBuf,
    },
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

crate::classified!(LinkError);
impl Classify for LinkError {
    fn exit(&self) -> Exit {
        Exit::Other
    }
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> LinkError + use<> {
    let path = path.to_owned();
    move |source| LinkError::Io {
        action,
        path,
        source,
    }
}

/// How a skill was placed into a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    Symlink,
    Copy,
}

/// What is at `<root>/<name>` right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkState {
    Missing,
    /// A skillpm symlink; `target` is where it points (it may be gone).
    Symlink {
        target: PathBuf,
    },
    /// A skillpm copy; `tree` is the digest recorded in its marker.
    Copy {
        tree: Option<Digest>,
    },
    /// Something skillpm did not make.
    Foreign {
        what: &'static str,
    },
}

impl LinkState {
    pub fn is_managed(&self) -> bool {
        matches!(self, LinkState::Symlink { .. } | LinkState::Copy { .. })
    }

    /// The store entry digest this link stands for, when it is skillpm's.
    pub fn digest(&self) -> Option<Digest> {
        match self {
            LinkState::Symlink { target } => target
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(Digest::from_file_name),
            LinkState::Copy { tree } => *tree,
            _ => None,
        }
    }
}

/// A symlink is skillpm's when it points at `…/store/sha256-<hex>`.
fn is_store_target(target: &Path) -> bool {
    let named_by_digest = target
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(Digest::from_file_name)
        .is_some();
    let in_store = target
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == crate::cache::layout::STORE);
    named_by_digest && in_store
}

/// Looks at `path` without following a symlink.
pub fn inspect(path: &Path) -> Result<LinkState, LinkError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LinkState::Missing),
        Err(e) => return Err(io("inspect", path)(e)),
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        let target = std::fs::read_link(path).map_err(io("read link", path))?;
        if is_store_target(&target) {
            return Ok(LinkState::Symlink { target });
        }
        return Ok(LinkState::Foreign {
            what: "a symlink to somewhere outside skillpm's store",
        });
    }
    if ft.is_dir() {
        let marker = path.join(COPY_MARKER);
        if let Ok(text) = std::fs::read_to_string(&marker) {
            return Ok(LinkState::Copy {
                tree: text.trim().parse().ok(),
            });
        }
        return Ok(LinkState::Foreign { what: "a folder" });
    }
    Ok(LinkState::Foreign { what: "a file" })
}

/// Places `<root>/<name>` pointing at the store entry `entry` (whose tree
/// digest is `tree`). Replaces only a link skillpm made; never a foreign one.
/// `prefer` is tried first; a failed symlink falls back to a copy.
pub fn place(
    root: &Path,
    name: &str,
    entry: &Path,
    tree: Digest,
    prefer: LinkKind,
) -> Result<LinkKind, LinkError> {
    let state = inspect(&root.join(name))?;
    place_over(root, name, &state, entry, tree, prefer)
}

/// [`place`] for a caller that has just inspected `<root>/<name>` (`state`),
/// so a sync of many links looks at each place once.
pub fn place_over(
    root: &Path,
    name: &str,
    state: &LinkState,
    entry: &Path,
    tree: Digest,
    prefer: LinkKind,
) -> Result<LinkKind, LinkError> {
    let dest = root.join(name);
    match state {
        LinkState::Foreign { what } => {
            return Err(LinkError::Conflict {
                path: dest,
                what,
                wanted: entry.to_owned(),
            });
        }
        // Already right: nothing to create (the common case of a re-install).
        LinkState::Symlink { target } if prefer == LinkKind::Symlink && target == entry => {
            return Ok(LinkKind::Symlink);
        }
        _ => {}
    }
    std::fs::create_dir_all(root).map_err(io("create", root))?;
    let state = state.clone();
    if prefer == LinkKind::Symlink {
        match place_symlink(root, name, entry, &dest, &state) {
            Ok(()) => return Ok(LinkKind::Symlink),
            Err(LinkError::Io { .. }) => {} // fall back to a copy below
            Err(other) => return Err(other),
        }
    }
    place_copy(root, name, entry, tree, &dest, &state)?;
    Ok(LinkKind::Copy)
}

fn temp_name(root: &Path, name: &str) -> PathBuf {
    root.join(format!(".{name}.skillpm-tmp-{}", unique_suffix()))
}

fn place_symlink(
    root: &Path,
    name: &str,
    entry: &Path,
    dest: &Path,
    state: &LinkState,
) -> Result<(), LinkError> {
    if let LinkState::Symlink { target } = state
        && target == entry
    {
        return Ok(());
    }
    if *state == LinkState::Missing {
        // Creating a symlink is atomic by itself; the temp name and rename
        // are only needed to replace one (and doubled the cost of a fresh
        // install). If something appeared meanwhile, it is left alone.
        return make_dir_symlink(entry, dest).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                LinkError::Conflict {
                    path: dest.to_owned(),
                    what: "something created while skillpm was linking",
                    wanted: entry.to_owned(),
                }
            } else {
                io("create a symlink at", dest)(e)
            }
        });
    }
    let tmp = temp_name(root, name);
    make_dir_symlink(entry, &tmp).map_err(io("create a symlink at", &tmp))?;
    if let LinkState::Copy { .. } = state {
        // A folder cannot be renamed over; move the old copy aside first.
        remove_copy(dest)?;
    }
    std::fs::rename(&tmp, dest).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io("rename a symlink onto", dest)(e)
    })
}

#[cfg(unix)]
fn make_dir_symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn make_dir_symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

fn place_copy(
    root: &Path,
    name: &str,
    entry: &Path,
    tree: Digest,
    dest: &Path,
    state: &LinkState,
) -> Result<(), LinkError> {
    if let LinkState::Copy { tree: Some(t) } = state
        && *t == tree
    {
        return Ok(());
    }
    let tmp = temp_name(root, name);
    let result = copy_tree(entry, &tmp).and_then(|()| {
        std::fs::write(tmp.join(COPY_MARKER), format!("{tree}\n"))
            .map_err(io("write", &tmp.join(COPY_MARKER)))
    });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    match state {
        LinkState::Symlink { .. } => {
            std::fs::remove_file(dest).map_err(io("remove", dest))?;
        }
        LinkState::Copy { .. } => remove_copy(dest)?,
        _ => {}
    }
    std::fs::rename(&tmp, dest).map_err(|e| {
        let _ = std::fs::remove_dir_all(&tmp);
        io("move a copy onto", dest)(e)
    })
}

/// Copies a store entry (regular files and folders only), writable again.
fn copy_tree(from: &Path, to: &Path) -> Result<(), LinkError> {
    std::fs::create_dir_all(to).map_err(io("create", to))?;
    for entry in std::fs::read_dir(from).map_err(io("read", from))? {
        let entry = entry.map_err(io("read", from))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let ft = entry.file_type().map_err(io("inspect", &src))?;
        if ft.is_dir() {
            copy_tree(&src, &dst)?;
        } else if ft.is_file() {
            std::fs::copy(&src, &dst).map_err(io("copy", &src))?;
            // The store's entries are read-only; the copy keeps only the x bit.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let meta = std::fs::metadata(&src).map_err(io("inspect", &src))?;
                let mode = if crate::digest::is_executable(&meta) {
                    0o755
                } else {
                    0o644
                };
                std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(mode))
                    .map_err(io("set permissions on", &dst))?;
            }
        }
    }
    Ok(())
}

fn remove_copy(dest: &Path) -> Result<(), LinkError> {
    // Rename aside first so the name is free at once, then delete.
    let parent = crate::fs::parent_dir(dest);
    let trash = parent.join(format!(".skillpm-trash-{}", unique_suffix()));
    std::fs::rename(dest, &trash).map_err(io("move aside", dest))?;
    std::fs::remove_dir_all(&trash).map_err(io("remove", &trash))
}

/// Removes `<root>/<name>` if skillpm made it. Returns whether anything was
/// removed; a foreign folder is a conflict and stays untouched.
pub fn unlink(root: &Path, name: &str) -> Result<bool, LinkError> {
    let dest = root.join(name);
    match inspect(&dest)? {
        LinkState::Missing => Ok(false),
        LinkState::Symlink { .. } => {
            std::fs::remove_file(&dest).map_err(io("remove", &dest))?;
            Ok(true)
        }
        LinkState::Copy { .. } => {
            remove_copy(&dest)?;
            Ok(true)
        }
        LinkState::Foreign { what } => Err(LinkError::Conflict {
            path: dest,
            what,
            wanted: PathBuf::from("(nothing: skillpm was removing its link)"),
        }),
    }
}

/// The tree digest of a placed skill's content as an agent would read it:
/// through a symlink, or a copy without its marker.
pub fn hash_placed(path: &Path) -> Result<HashedTree, crate::digest::DigestError> {
    let real = std::fs::canonicalize(path).map_err(|source| crate::digest::DigestError::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut tree = crate::digest::hash_tree(&real)?;
    if tree.files.iter().any(|f| f.path == COPY_MARKER) {
        tree.files.retain(|f| f.path != COPY_MARKER);
        let mut hasher = TreeHasher::new();
        for f in &tree.files {
            hasher.add(f.path.clone(), f.digest);
        }
        tree.digest = hasher.finish();
    }
    Ok(tree)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    struct Fixture {
        _tmp: tempfile::TempDir,
        root: PathBuf,
        entry: PathBuf,
        tree: Digest,
    }

    fn fixture() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let entry_dir = tmp.path().join("cache/store");
        let tree_files = tmp.path().join("files");
        std::fs::create_dir_all(&tree_files).unwrap();
        std::fs::write(tree_files.join("SKILL.md"), "# Hello\n").unwrap();
        let tree = crate::digest::tree_digest(&tree_files).unwrap();
        let entry = entry_dir.join(tree.file_name());
        std::fs::create_dir_all(&entry_dir).unwrap();
        std::fs::rename(&tree_files, &entry).unwrap();
        let root = tmp.path().join("project/.agents/skills");
        Fixture {
            _tmp: tmp,
            root,
            entry,
            tree,
        }
    }

    #[test]
    fn symlink_is_placed_recognised_and_removed() {
        let f = fixture();
        let kind = place(&f.root, "hello", &f.entry, f.tree, LinkKind::Symlink).unwrap();
        assert_eq!(kind, LinkKind::Symlink);
        let state = inspect(&f.root.join("hello")).unwrap();
        assert_eq!(state.digest(), Some(f.tree));
        assert_eq!(hash_placed(&f.root.join("hello")).unwrap().digest, f.tree);
        assert!(unlink(&f.root, "hello").unwrap());
        assert_eq!(inspect(&f.root.join("hello")).unwrap(), LinkState::Missing);
        // No temp names left behind.
        assert_eq!(std::fs::read_dir(&f.root).unwrap().count(), 0);
    }

    #[test]
    fn copy_hashes_like_the_store_entry_and_can_become_a_symlink() {
        let f = fixture();
        place(&f.root, "hello", &f.entry, f.tree, LinkKind::Copy).unwrap();
        let dest = f.root.join("hello");
        assert_eq!(
            inspect(&dest).unwrap(),
            LinkState::Copy { tree: Some(f.tree) }
        );
        assert_eq!(hash_placed(&dest).unwrap().digest, f.tree);
        place(&f.root, "hello", &f.entry, f.tree, LinkKind::Symlink).unwrap();
        assert!(matches!(inspect(&dest).unwrap(), LinkState::Symlink { .. }));
        assert_eq!(std::fs::read_dir(&f.root).unwrap().count(), 1);
    }

    #[test]
    fn foreign_folder_and_foreign_symlink_are_never_touched() {
        let f = fixture();
        std::fs::create_dir_all(f.root.join("mine")).unwrap();
        std::fs::write(f.root.join("mine/SKILL.md"), "user's own").unwrap();
        let err = place(&f.root, "mine", &f.entry, f.tree, LinkKind::Symlink).unwrap_err();
        assert!(matches!(err, LinkError::Conflict { .. }));
        assert!(err.to_string().contains("mine"), "{err}");
        assert_eq!(
            std::fs::read_to_string(f.root.join("mine/SKILL.md")).unwrap(),
            "user's own"
        );
        assert!(unlink(&f.root, "mine").is_err());
        std::os::unix::fs::symlink("/tmp", f.root.join("elsewhere")).unwrap();
        assert!(place(&f.root, "elsewhere", &f.entry, f.tree, LinkKind::Symlink).is_err());
        assert_eq!(
            std::fs::read_link(f.root.join("elsewhere")).unwrap(),
            Path::new("/tmp")
        );
    }
}
