//! Links from agent skill roots into the store (docs/design.md#agents).
//!
//! A placement is `<root>/<name>` standing for a store entry, in one of four
//! kinds ([`LinkKind`]): a symlink to `<cache>/store/sha256-<hex>`, or a real
//! folder whose files are reflink clones, hard links or copies of the
//! entry's files. A folder holds exactly the entry's tree, nothing more:
//! what skillpm placed where is recorded in skillpm's own state (the
//! caller passes it in as a [`Record`]), never in a file inside the folder
//! a skill or a person could write (docs/design.md#agents). Each is built under a temp name and renamed into place, so
//! enabling, disabling and upgrading are atomic. skillpm only ever replaces
//! or removes what it made: a symlink into a store, or a folder its state
//! records.
//!
//! Hard links share their inode with the store: the store's files are
//! read-only, so an editor refuses to write them in place; one that forces
//! it changes the store too, which `skillpm verify` (the placed tree no
//! longer hashes to the lock's) and `cache verify` (the entry no longer
//! hashes to its name; it is quarantined) both catch, and the next
//! `install` re-creates the entry and re-links (see [`hardlinks_current`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::digest::{Digest, HashedTree};
use crate::error::{Classify, Exit};
use crate::fs::unique_suffix;
use crate::project::state::{Placements, ProjectState};

/// What skillpm's state records at `path`: the only thing that makes a
/// folder skillpm's (docs/design.md#agents).
pub fn record_at(placements: &Placements, path: &Path) -> Record {
    match placements.get(path) {
        Some(p) => Record::from_state(p.tree, p.kind.as_deref()),
        None => Record::None,
    }
}

/// Every placement recorded in the state of the cache at `cache_root`
/// (none when the cache is unknown: then no folder is skillpm's).
pub fn placements(cache_root: Option<&Path>) -> Placements {
    cache_root
        .map(|cache| ProjectState::new(&cache.join(crate::cache::layout::STATE)).placements())
        .unwrap_or_default()
}

/// What skillpm's own state says it placed at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// Nothing: a folder there is not skillpm's.
    None,
    /// A placement of `kind` standing for `tree`.
    Placed { tree: Digest, kind: LinkKind },
}

impl Record {
    /// The record the state keeps as text: `tree` and `kind` (a record
    /// without both names no placement).
    pub fn from_state(tree: Option<Digest>, kind: Option<&str>) -> Record {
        match (tree, kind.and_then(LinkKind::parse)) {
            (Some(tree), Some(kind)) => Record::Placed { tree, kind },
            _ => Record::None,
        }
    }
}

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
    #[error(
        "{root} leads outside {scope_root} (it resolves to {real}); skillpm places and removes skills only inside it, so nothing was changed there.\n  make {root} a folder inside {scope_root} (or remove the symlink), then run the command again"
    )]
    Escapes {
        root: PathBuf,
        real: PathBuf,
        scope_root: PathBuf,
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
        match self {
            LinkError::Escapes { .. } => Exit::Unsafe,
            LinkError::Conflict { .. } | LinkError::Io { .. } => Exit::Other,
        }
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

/// `path` holds `what`, which skillpm did not make, where `wanted` should go.
fn conflict(path: &Path, what: &'static str, wanted: &Path) -> LinkError {
    LinkError::Conflict {
        path: path.to_owned(),
        what,
        wanted: wanted.to_owned(),
    }
}

/// How a skill was placed into a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    Symlink,
    Copy,
    Hardlink,
    Clone,
}

impl LinkKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Symlink => "symlink",
            LinkKind::Copy => "copy",
            LinkKind::Hardlink => "hardlink",
            LinkKind::Clone => "clone",
        }
    }

    pub fn parse(text: &str) -> Option<LinkKind> {
        [
            LinkKind::Symlink,
            LinkKind::Copy,
            LinkKind::Hardlink,
            LinkKind::Clone,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

pub use crate::agents::roots::LinkMode;

/// What is at `<root>/<name>` right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkState {
    Missing,
    /// A skillpm symlink; `target` is where it points (it may be gone).
    Symlink {
        target: PathBuf,
    },
    /// A skillpm folder (copy, clone or hard links); `tree` is the digest
    /// skillpm's state records for it, `kind` how its files were made.
    Copy {
        tree: Option<Digest>,
        kind: LinkKind,
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
            LinkState::Copy { tree, .. } => *tree,
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

/// A symlink pointing at `target`: skillpm's when that is a store entry.
fn symlink_state(target: PathBuf) -> LinkState {
    if is_store_target(&target) {
        LinkState::Symlink { target }
    } else {
        LinkState::Foreign {
            what: "a symlink to somewhere outside skillpm's store",
        }
    }
}

/// Looks at `path` without following a symlink. A folder is skillpm's only
/// when `record` (skillpm's state) says so.
pub fn inspect(path: &Path, record: Record) -> Result<LinkState, LinkError> {
    // One call for the usual place, a symlink: `readlink` says both that it
    // is one and where it points (a no-op install reads 1,000 links;
    // docs/performance.md#the-no-op-install). Anything else is looked at.
    match std::fs::read_link(path) {
        Ok(target) => return Ok(symlink_state(target)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LinkState::Missing),
        Err(_) => {}
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LinkState::Missing),
        Err(e) => return Err(io("inspect", path)(e)),
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        // Made a symlink since `readlink` looked.
        let target = std::fs::read_link(path).map_err(io("read link", path))?;
        return Ok(symlink_state(target));
    }
    if ft.is_dir() {
        if let Record::Placed { tree, kind } = record
            && kind != LinkKind::Symlink
        {
            return Ok(LinkState::Copy {
                tree: Some(tree),
                kind,
            });
        }
        return Ok(LinkState::Foreign { what: "a folder" });
    }
    Ok(LinkState::Foreign { what: "a file" })
}

/// Refuses an agent folder `root` that resolves outside `scope_root` (the
/// project root, or the scope root the user named): a symlinked
/// `.claude/skills` pointing elsewhere would make every placement and
/// removal happen outside. The deepest part of `root` that exists is
/// resolved, so a root not created yet is checked through its parents.
pub fn ensure_inside(root: &Path, scope_root: &Path) -> Result<(), LinkError> {
    let Ok(base) = std::fs::canonicalize(scope_root) else {
        return Ok(());
    };
    let mut existing = root.to_path_buf();
    let mut rest = Vec::new();
    while std::fs::symlink_metadata(&existing).is_err() {
        match (existing.file_name(), existing.parent()) {
            (Some(n), Some(p)) => {
                rest.push(n.to_owned());
                existing = p.to_path_buf();
            }
            _ => return Ok(()),
        }
    }
    let real = std::fs::canonicalize(&existing).map_err(io("resolve", &existing))?;
    // Only a root under the scope root by name is held to it (a user-scope
    // root such as ~/.claude/skills is checked against the home folder).
    if !root.starts_with(scope_root) || real.starts_with(&base) {
        return Ok(());
    }
    let real = rest.iter().rev().fold(real, |p, n| p.join(n));
    Err(LinkError::Escapes {
        root: root.to_owned(),
        real,
        scope_root: scope_root.to_owned(),
    })
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
    record: Record,
) -> Result<LinkKind, LinkError> {
    let state = inspect(&root.join(name), record)?;
    ensure_root(root)?;
    place_over(root, name, &state, entry, tree, prefer)
}

/// Creates an agent folder (and its parents) that links are placed in.
///
/// When this creates the agent folder's parent too (`.claude/` of a fresh
/// checkout), the parent is marked so ext4 places the agent folder, and so
/// its links, in a block group of its own (`crate::fs::spread`): a CI job
/// that just deleted the last run's project left recently freed inodes
/// beside the project, and each link made there scanned past all of them
/// (43 % of a warm `add --all` of 500; docs/performance.md#what-the-measurements-decided).
/// A parent that already existed is left as it is.
///
/// ext4 picks the block group of a folder made in a spread parent from a
/// hash of the folder's name, so `.claude/skills` of every new project went
/// to the same group, where the last deleted project's links had just been
/// freed (a warm `add --all` of 500 into a project made again spent 30 % of
/// its samples scanning them): the agent folder is made under a name of its
/// own and renamed into place.
pub fn ensure_root(root: &Path) -> Result<(), LinkError> {
    if root.is_dir() {
        return Ok(());
    }
    if let Some(parent) = root.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.exists()
    {
        std::fs::create_dir_all(parent).map_err(io("create", parent))?;
        crate::fs::spread::spread_subfolders(parent);
        let fresh = parent.join(format!(".skillpm-new-{:016x}", fastrand::u64(..)));
        if std::fs::create_dir(&fresh).is_ok() && std::fs::rename(&fresh, root).is_err() {
            // Made meanwhile by someone else: theirs stands.
            let _ = std::fs::remove_dir(&fresh);
        }
    }
    match std::fs::create_dir(root) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && root.is_dir() => Ok(()),
        other => other.map_err(io("create", root)),
    }
}

/// [`place`] for a caller that has just inspected `<root>/<name>` (`state`)
/// and made sure `root` exists, so a sync of many links looks at each place
/// once and creates each root once rather than once per link.
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
        LinkState::Foreign { what } => return Err(conflict(&dest, what, entry)),
        // Already right: nothing to create (the common case of a re-install).
        LinkState::Symlink { target } if prefer == LinkKind::Symlink && target == entry => {
            return Ok(LinkKind::Symlink);
        }
        LinkState::Copy {
            tree: Some(t),
            kind,
        } if *t == tree && *kind == prefer && current(dest.as_path(), entry, *kind) => {
            return Ok(*kind);
        }
        _ => {}
    }
    if prefer == LinkKind::Symlink {
        match place_symlink(root, name, entry, &dest, state) {
            Ok(()) => return Ok(LinkKind::Symlink),
            Err(LinkError::Io { .. }) => {} // fall back to a copy below
            Err(other) => return Err(other),
        }
    }
    let kind = match prefer {
        LinkKind::Symlink => LinkKind::Copy,
        other => other,
    };
    place_tree(root, name, entry, &dest, state, kind).map_err(Failure::into_error)?;
    Ok(kind)
}

/// `link-mode = "auto"`: a reflink clone, else hard links, else a copy. A
/// kind the file system refuses falls through to the next (nothing of it
/// is left behind); any other failure stops. A folder skillpm already
/// placed for the same tree, of any of these kinds, is kept as it is.
/// Returns the kind used, which the caller reuses for the rest of the root
/// (one file system) so the probing costs one failed call per root.
/// `root` must exist (the caller creates it once).
pub fn place_auto(
    root: &Path,
    name: &str,
    state: &LinkState,
    entry: &Path,
    tree: Digest,
) -> Result<LinkKind, LinkError> {
    if let LinkState::Copy {
        tree: Some(t),
        kind,
    } = state
        && *t == tree
        && current(&root.join(name), entry, *kind)
    {
        return Ok(*kind);
    }
    if let LinkState::Foreign { what } = state {
        return Err(conflict(&root.join(name), what, entry));
    }
    let dest = root.join(name);
    for kind in [LinkKind::Clone, LinkKind::Hardlink] {
        match place_tree(root, name, entry, &dest, state, kind) {
            Ok(()) => return Ok(kind),
            Err(Failure::Unsupported(_)) => continue,
            Err(Failure::Fatal(e)) => return Err(e),
        }
    }
    place_tree(root, name, entry, &dest, state, LinkKind::Copy).map_err(Failure::into_error)?;
    Ok(LinkKind::Copy)
}

/// Whether a placed folder of `kind` still stands for `entry`. Hard links
/// must share the entry's inodes: after a corrupted entry was quarantined
/// and fetched again, the old links point at the bad content and must be
/// re-made even though the recorded digest still matches.
fn current(dest: &Path, entry: &Path, kind: LinkKind) -> bool {
    kind != LinkKind::Hardlink || hardlinks_current(dest, entry)
}

/// [`inspect`] for a place that should hold `tree`. A copy or clone holds
/// its own files, so an edit in place shows only in its content: one whose
/// record claims `tree` is hashed again, and when it no longer holds it the
/// claim is dropped (`tree: None`), so it is placed again and reported so.
/// The cost falls only on the modes that copy. An edit through a symlink or a hard link changed
/// the store entry itself: `cache verify` finds that.
pub fn inspect_placed(
    path: &Path,
    tree: Digest,
    record: Record,
) -> Result<(LinkState, Option<HashedTree>), LinkError> {
    let mut state = inspect(path, record)?;
    let mut drifted = None;
    if let LinkState::Copy {
        tree: claimed @ Some(_),
        kind: LinkKind::Copy | LinkKind::Clone,
    } = &mut state
        && *claimed == Some(tree)
    {
        let placed = hash_placed(path).unwrap_or_else(|_| HashedTree::from_files(Vec::new()));
        if placed.digest != tree {
            *claimed = None;
            drifted = Some(placed);
        }
    }
    Ok((state, drifted))
}

/// Whether `dest/SKILL.md` is the same file as `entry/SKILL.md`.
pub fn hardlinks_current(dest: &Path, entry: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let id = |p: &Path| {
            std::fs::metadata(p.join("SKILL.md"))
                .ok()
                .map(|m| (m.dev(), m.ino()))
        };
        matches!((id(dest), id(entry)), (Some(a), Some(b)) if a == b)
    }
    #[cfg(not(unix))]
    {
        let _ = (dest, entry);
        false
    }
}

/// Why building a folder failed: the file system cannot do this kind (try
/// another), or anything else.
enum Failure {
    Unsupported(LinkError),
    Fatal(LinkError),
}

impl Failure {
    fn into_error(self) -> LinkError {
        match self {
            Failure::Unsupported(e) | Failure::Fatal(e) => e,
        }
    }
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
                conflict(dest, "something created while skillpm was linking", entry)
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

fn place_tree(
    root: &Path,
    name: &str,
    entry: &Path,
    dest: &Path,
    state: &LinkState,
    kind: LinkKind,
) -> Result<(), Failure> {
    let tmp = temp_name(root, name);
    if let Err(e) = build_tree(entry, &tmp, kind) {
        let _ = remove_tree(&tmp);
        return Err(e);
    }
    let swap = || -> Result<(), LinkError> {
        match state {
            LinkState::Symlink { .. } => {
                std::fs::remove_file(dest).map_err(io("remove", dest))?;
            }
            LinkState::Copy { .. } => remove_copy(dest)?,
            _ => {}
        }
        std::fs::rename(&tmp, dest).map_err(io("move a copy onto", dest))
    };
    swap().map_err(|e| {
        let _ = remove_tree(&tmp);
        Failure::Fatal(e)
    })
}

/// Builds `to` from the store entry `from` (regular files and folders
/// only): folders are created writable; files are made per `kind`. Plain
/// copies and clones get mode 0644 (0755 when executable); hard links keep
/// the store's read-only mode, which is what protects the store.
fn build_tree(from: &Path, to: &Path, kind: LinkKind) -> Result<(), Failure> {
    let fatal = |action, path: &Path| {
        let f = io(action, path);
        move |e| Failure::Fatal(f(e))
    };
    std::fs::create_dir(to).map_err(fatal("create", to))?;
    for entry in std::fs::read_dir(from).map_err(fatal("read", from))? {
        let entry = entry.map_err(fatal("read", from))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let ft = entry.file_type().map_err(fatal("inspect", &src))?;
        if ft.is_dir() {
            build_tree(&src, &dst, kind)?;
        } else if ft.is_file() {
            place_file(&src, &dst, kind)?;
        }
    }
    Ok(())
}

fn place_file(src: &Path, dst: &Path, kind: LinkKind) -> Result<(), Failure> {
    match kind {
        LinkKind::Hardlink => std::fs::hard_link(src, dst).map_err(|e| {
            let unsupported = is_unsupported(&e)
                || e.raw_os_error() == Some(EXDEV)
                || e.raw_os_error() == Some(EPERM)
                || e.raw_os_error() == Some(EMLINK);
            classify(unsupported, io("hard-link", dst)(e))
        }),
        LinkKind::Clone => {
            reflink(src, dst).map_err(|e| {
                classify(
                    is_unsupported(&e) || e.raw_os_error() == Some(EXDEV),
                    io("clone", dst)(e),
                )
            })?;
            writable_mode(src, dst).map_err(Failure::Fatal)
        }
        _ => copy_file(src, dst).map_err(Failure::Fatal),
    }
}

/// A plain copy made with its final mode at creation (0644, 0755 when the
/// store's file is executable): one open of each side and the data copy,
/// no chmod afterwards (`std::fs::copy` plus a chmod cost two more calls
/// and a stat per file). Never written over an existing file.
fn copy_file(src: &Path, dst: &Path) -> Result<(), LinkError> {
    let mut from = std::fs::File::open(src).map_err(io("read", src))?;
    let meta = from.metadata().map_err(io("inspect", src))?;
    let mode = if crate::digest::is_executable(&meta) {
        0o755
    } else {
        0o644
    };
    let mut to = crate::fs::create_new(dst, mode).map_err(io("create", dst))?;
    std::io::copy(&mut from, &mut to).map_err(io("copy", src))?;
    Ok(())
}

fn classify(unsupported: bool, e: LinkError) -> Failure {
    if unsupported {
        Failure::Unsupported(e)
    } else {
        Failure::Fatal(e)
    }
}

#[cfg(unix)]
const EXDEV: i32 = libc::EXDEV;
#[cfg(unix)]
const EPERM: i32 = libc::EPERM;
#[cfg(unix)]
const EMLINK: i32 = libc::EMLINK;
#[cfg(not(unix))]
const EXDEV: i32 = 17;
#[cfg(not(unix))]
const EPERM: i32 = 1;
#[cfg(not(unix))]
const EMLINK: i32 = 1142;

/// The errors a file system gives for an operation it does not offer.
fn is_unsupported(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::Unsupported {
        return true;
    }
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EOPNOTSUPP | libc::ENOTTY | libc::EINVAL | libc::ENOSYS | libc::EXDEV)
        )
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// A copy-on-write clone of `src` at `dst` (Linux FICLONE ioctl); other
/// platforms report it unsupported, so `auto` moves on to hard links.
#[cfg(target_os = "linux")]
fn reflink(src: &Path, dst: &Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let from = std::fs::File::open(src)?;
    let to = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dst)?;
    // SAFETY: both descriptors are open for the duration of the call;
    // FICLONE reads no memory of ours.
    let rc = unsafe { libc::ioctl(to.as_raw_fd(), libc::FICLONE, from.as_raw_fd()) };
    if rc == 0 {
        return Ok(());
    }
    let err = std::io::Error::last_os_error();
    drop(to);
    let _ = std::fs::remove_file(dst);
    Err(err)
}

#[cfg(not(target_os = "linux"))]
fn reflink(_src: &Path, _dst: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// The store's entries are read-only; a copy keeps only the x bit.
fn writable_mode(src: &Path, dst: &Path) -> Result<(), LinkError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(src).map_err(io("inspect", src))?;
        let mode = if crate::digest::is_executable(&meta) {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(dst, std::fs::Permissions::from_mode(mode))
            .map_err(io("set permissions on", dst))?;
    }
    #[cfg(not(unix))]
    {
        let _ = src;
        let mut perms = std::fs::metadata(dst)
            .map_err(io("inspect", dst))?
            .permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(dst, perms).map_err(io("set permissions on", dst))?;
    }
    Ok(())
}

/// Deletes a folder skillpm built (hard-linked files are read-only, but
/// removing a name needs only the folder to be writable, which it is).
fn remove_tree(path: &Path) -> std::io::Result<()> {
    std::fs::remove_dir_all(path)
}

fn remove_copy(dest: &Path) -> Result<(), LinkError> {
    // Rename aside first so the name is free at once, then delete.
    let parent = crate::fs::parent_dir(dest);
    let trash = parent.join(format!(".skillpm-trash-{}", unique_suffix()));
    std::fs::rename(dest, &trash).map_err(io("move aside", dest))?;
    remove_tree(&trash).map_err(io("remove", &trash))
}

/// Removes `<root>/<name>` if skillpm made it (`record` is what its state
/// says). Returns whether anything was removed; a foreign folder is a
/// conflict and stays untouched.
pub fn unlink(root: &Path, name: &str, record: Record) -> Result<bool, LinkError> {
    let dest = root.join(name);
    match inspect(&dest, record)? {
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
/// through a symlink, or a folder.
pub fn hash_placed(path: &Path) -> Result<HashedTree, crate::digest::DigestError> {
    let real = std::fs::canonicalize(path).map_err(|source| crate::digest::DigestError::Io {
        path: path.to_owned(),
        source,
    })?;
    crate::digest::hash_tree(&real)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    const NONE: Record = Record::None;

    /// An agent folder made with its parent gets a parent marked to spread
    /// its subfolders (ext4's `TOPDIR`, `crate::fs::spread`); a parent that
    /// already existed (the user's `.claude/`) is not touched.
    #[cfg(target_os = "linux")]
    #[test]
    fn ensure_root_spreads_only_a_parent_it_made() {
        use rustix::fs::{IFlags, ioctl_getflags, statfs};
        const EXT4_SUPER_MAGIC: i64 = 0xEF53;
        let tmp = tempfile::tempdir().unwrap();
        let topdir = |p: &Path| {
            ioctl_getflags(std::fs::File::open(p).unwrap())
                .unwrap()
                .contains(IFlags::TOPDIR)
        };
        let made = tmp.path().join("fresh/.claude");
        ensure_root(&made.join("skills")).unwrap();
        ensure_root(&made.join("skills")).unwrap();
        assert!(made.join("skills").is_dir());
        // Made under a name of its own and renamed: nothing else is left.
        let names: Vec<_> = std::fs::read_dir(&made)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["skills"]);
        let existing = tmp.path().join("user/.claude");
        std::fs::create_dir_all(&existing).unwrap();
        ensure_root(&existing.join("skills")).unwrap();
        assert!(existing.join("skills").is_dir());
        if statfs(tmp.path()).unwrap().f_type as i64 == EXT4_SUPER_MAGIC {
            assert!(topdir(&made));
            assert!(!topdir(&existing));
        }
    }

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
        let kind = place(&f.root, "hello", &f.entry, f.tree, LinkKind::Symlink, NONE).unwrap();
        assert_eq!(kind, LinkKind::Symlink);
        let state = inspect(&f.root.join("hello"), NONE).unwrap();
        assert_eq!(state.digest(), Some(f.tree));
        assert_eq!(hash_placed(&f.root.join("hello")).unwrap().digest, f.tree);
        assert!(unlink(&f.root, "hello", NONE).unwrap());
        assert_eq!(
            inspect(&f.root.join("hello"), NONE).unwrap(),
            LinkState::Missing
        );
        // No temp names left behind.
        assert_eq!(std::fs::read_dir(&f.root).unwrap().count(), 0);
    }

    /// Copies are created with their final, writable mode (no chmod
    /// afterwards): 0644, or 0755 where the store's file is executable,
    /// from a read-only entry whose own modes stay as they were.
    #[test]
    fn copies_of_a_read_only_entry_are_writable_and_keep_the_x_bit() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let files = tmp.path().join("files");
        std::fs::create_dir_all(files.join("scripts")).unwrap();
        std::fs::write(files.join("SKILL.md"), "# Hi\n").unwrap();
        std::fs::write(files.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        let set = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        set(&files.join("SKILL.md"), 0o444);
        set(&files.join("scripts/run.sh"), 0o555);
        let tree = crate::digest::tree_digest(&files).unwrap();
        set(&files.join("scripts"), 0o555);
        set(&files, 0o555);
        let root = tmp.path().join("project/.agents/skills");
        place(&root, "hi", &files, tree, LinkKind::Copy, NONE).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dest = root.join("hi");
        assert_eq!(mode(&dest.join("SKILL.md")), 0o644);
        assert_eq!(mode(&dest.join("scripts/run.sh")), 0o755);
        assert_eq!(mode(&files.join("SKILL.md")), 0o444);
        assert_eq!(mode(&files.join("scripts/run.sh")), 0o555);
        assert_eq!(hash_placed(&dest).unwrap().digest, tree);
        set(&files, 0o755);
        set(&files.join("scripts"), 0o755);
    }

    #[test]
    fn copy_hashes_like_the_store_entry_and_can_become_a_symlink() {
        let f = fixture();
        place(&f.root, "hello", &f.entry, f.tree, LinkKind::Copy, NONE).unwrap();
        let dest = f.root.join("hello");
        let placed = Record::Placed {
            tree: f.tree,
            kind: LinkKind::Copy,
        };
        assert_eq!(
            inspect(&dest, placed).unwrap(),
            LinkState::Copy {
                tree: Some(f.tree),
                kind: LinkKind::Copy
            }
        );
        // The folder holds the tree and nothing else; without the state's
        // record it is not skillpm's.
        assert_eq!(
            inspect(&dest, NONE).unwrap(),
            LinkState::Foreign { what: "a folder" }
        );
        assert_eq!(hash_placed(&dest).unwrap().digest, f.tree);
        place(
            &f.root,
            "hello",
            &f.entry,
            f.tree,
            LinkKind::Symlink,
            placed,
        )
        .unwrap();
        assert!(matches!(
            inspect(&dest, NONE).unwrap(),
            LinkState::Symlink { .. }
        ));
        assert_eq!(std::fs::read_dir(&f.root).unwrap().count(), 1);
    }

    #[test]
    fn foreign_folder_and_foreign_symlink_are_never_touched() {
        let f = fixture();
        std::fs::create_dir_all(f.root.join("mine")).unwrap();
        std::fs::write(f.root.join("mine/SKILL.md"), "user's own").unwrap();
        let err = place(&f.root, "mine", &f.entry, f.tree, LinkKind::Symlink, NONE).unwrap_err();
        assert!(matches!(err, LinkError::Conflict { .. }));
        assert!(err.to_string().contains("mine"), "{err}");
        assert_eq!(
            std::fs::read_to_string(f.root.join("mine/SKILL.md")).unwrap(),
            "user's own"
        );
        assert!(unlink(&f.root, "mine", NONE).is_err());
        std::os::unix::fs::symlink("/tmp", f.root.join("elsewhere")).unwrap();
        assert!(
            place(
                &f.root,
                "elsewhere",
                &f.entry,
                f.tree,
                LinkKind::Symlink,
                NONE
            )
            .is_err()
        );
        assert_eq!(
            std::fs::read_link(f.root.join("elsewhere")).unwrap(),
            Path::new("/tmp")
        );
    }

    #[test]
    fn an_agent_folder_leading_out_of_the_project_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, project.join(".claude/skills")).unwrap();
        let err = ensure_inside(&project.join(".claude/skills"), &project).unwrap_err();
        assert!(matches!(err, LinkError::Escapes { .. }), "{err}");
        assert!(err.to_string().contains(".claude/skills"), "{err}");
        // Inside the project (even through a symlink), and not yet made: fine.
        std::fs::create_dir_all(project.join(".agents/skills")).unwrap();
        std::os::unix::fs::symlink(
            project.join(".agents/skills"),
            project.join(".claude/other"),
        )
        .unwrap();
        ensure_inside(&project.join(".claude/other"), &project).unwrap();
        ensure_inside(&project.join(".cursor/skills"), &project).unwrap();
    }
}
