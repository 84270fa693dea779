//! Agent folders whose symlinks need not be read one by one
//! (docs/performance.md#the-no-op-install).
//!
//! A symlink cannot be changed in place: pointing a name elsewhere, or
//! putting a folder or file there, removes or renames an entry of its
//! folder, which moves the folder's mtime and ctime. A run that read every
//! link of a folder and found each one where it should be records the
//! folder's stamp (device, inode, mtime, ctime) and the digest of those
//! links (each name and its target) in the project's MAC'd sealed-folders
//! record (`project::state`); a later run in the same boot whose folder
//! still has that stamp, and whose lock wants exactly those links, takes
//! them as read.
//!
//! Like git's racy index, a stamp is recorded only when the folder's last
//! change is older than [`SETTLED`] at the moment it was read: a change in
//! the same tick of the file system's clock as the stamp could leave it
//! unchanged. Only folders on local file systems, whose times the kernel
//! takes from its own clock, are sealed (a network file system takes the
//! server's), and only on Linux.

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::link::{LinkKind, LinkMode, LinkState};
use super::{PlacementSite, Target};
use crate::digest::Digest;
use crate::project::lock::LockedSkill;
use crate::project::state::{PlacedLink, SealedFolder};

/// How old a folder's last change must be for its stamp to vouch for it:
/// far more than a tick of the kernel's coarse clock (at most 10 ms).
const SETTLED: Duration = Duration::from_millis(100);

/// Each target's sealing in this run: its stamp and links digest when it
/// could be stamped, and whether the record vouched for it.
pub(super) struct Sealing {
    boot: Option<&'static str>,
    /// When the stamps were read (before any link was).
    read_at: SystemTime,
    folders: Vec<Option<Folder>>,
    recorded: Vec<SealedFolder>,
}

struct Folder {
    sealed: SealedFolder,
    /// The record names this folder with this stamp and these links.
    vouched: bool,
}

impl Sealing {
    /// Whether target `i`'s links may be taken as the record says.
    pub(super) fn vouched(&self, i: usize) -> bool {
        self.folders
            .get(i)
            .is_some_and(|f| f.as_ref().is_some_and(|f| f.vouched))
    }
}

/// Reads the stamp of every target's folder and the project's record:
/// what [`Sealing::vouched`] answers. Only symlink placement is sealed.
pub(super) fn check(
    site: &PlacementSite<'_>,
    targets: &[Target],
    enabled: &[&LockedSkill],
    mode: LinkMode,
) -> Sealing {
    let boot = crate::fs::durable::boot_epoch();
    let read_at = SystemTime::now();
    let recorded = match boot {
        Some(boot) if mode == LinkMode::Symlink => site.state.sealed_folders(site.root, boot),
        _ => Vec::new(),
    };
    let sealable = boot.is_some() && mode == LinkMode::Symlink;
    let links = sealable.then(|| links_digest(site, enabled));
    let folders = targets
        .iter()
        .map(|t| {
            let links = links?;
            let sealed = SealedFolder {
                stamp: stamp(&t.root)?,
                links,
                root: t.root.clone(),
            };
            let vouched = recorded.contains(&sealed);
            Some(Folder { sealed, vouched })
        })
        .collect();
    Sealing {
        boot,
        read_at,
        folders,
        recorded,
    }
}

/// Whether a sync would change nothing and write nothing, told without
/// reading a link: every target's folder is vouched for, and the project's
/// links record names exactly the symlinks `enabled` wants in those
/// targets and nowhere else (so no place a dropped agent or skill left
/// behind waits to be unlinked).
pub(super) fn all_held(
    site: &PlacementSite<'_>,
    sealing: &Sealing,
    targets: &[Target],
    enabled: &[&LockedSkill],
) -> bool {
    if !(0..targets.len()).all(|i| sealing.vouched(i)) {
        return false;
    }
    let kind = Some(LinkKind::Symlink.as_str().to_owned());
    let wanted = (targets.iter())
        .flat_map(|t| {
            enabled.iter().map(|s| PlacedLink {
                root: t.root.clone(),
                name: s.name.clone(),
                tree: Some(s.tree),
                kind: kind.clone(),
            })
        })
        .collect();
    site.state.links_record_is(site.root, wanted)
}

/// After a sync that changed nothing: records every target whose links
/// were all found in place (`in_place`) and whose stamp had settled when
/// it was read, unless the record already says exactly that.
pub(super) fn record(site: &PlacementSite<'_>, sealing: &Sealing, in_place: &[bool]) {
    let Some(boot) = sealing.boot else {
        return;
    };
    let folders: Vec<SealedFolder> = (sealing.folders.iter().zip(in_place))
        .filter_map(|(f, ok)| f.as_ref().filter(|_| *ok))
        .filter(|f| {
            f.vouched || (settled(&f.sealed.stamp, sealing.read_at) && local(&f.sealed.root))
        })
        .map(|f| f.sealed.clone())
        .collect();
    if folders.is_empty() || folders == sealing.recorded {
        return;
    }
    // Best effort: a record not written is one not used.
    let _ = site.state.record_sealed_folders(site.root, boot, &folders);
}

/// The digest of the links `enabled` wants in a folder: each name and the
/// store entry it points at (`<store>/sha256-<tree>`: the store folder
/// once, then each name and tree).
fn links_digest(site: &PlacementSite<'_>, enabled: &[&LockedSkill]) -> Digest {
    let store = site.store.store_dir();
    let mut text = Vec::with_capacity(enabled.len() * 64 + 256);
    text.extend_from_slice(store.as_os_str().as_encoded_bytes());
    text.push(b'\n');
    for s in enabled {
        text.extend_from_slice(s.name.as_bytes());
        text.push(0);
        text.extend_from_slice(s.tree.as_bytes());
        text.push(b'\n');
    }
    Digest::of_bytes(&text)
}

/// `<device> <inode> <mtime-ns> <ctime-ns>` of the folder `root` (its
/// symlinks followed: the folder the agents read).
#[cfg(target_os = "linux")]
fn stamp(root: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(root).ok()?;
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    m.is_dir().then(|| {
        format!(
            "{} {} {} {}",
            m.dev(),
            m.ino(),
            ns(m.mtime(), m.mtime_nsec()),
            ns(m.ctime(), m.ctime_nsec())
        )
    })
}

#[cfg(not(target_os = "linux"))]
fn stamp(_root: &Path) -> Option<String> {
    None
}

/// Whether the change time in `stamp` is older than [`SETTLED`] before
/// `read_at` (a change time in the future never is).
fn settled(stamp: &str, read_at: SystemTime) -> bool {
    let Some(ctime) = stamp
        .rsplit(' ')
        .next()
        .and_then(|c| c.parse::<i128>().ok())
    else {
        return false;
    };
    let Ok(now) = read_at.duration_since(SystemTime::UNIX_EPOCH) else {
        return false;
    };
    ctime + (SETTLED.as_nanos() as i128) < now.as_nanos() as i128
}

/// Whether `root` is on a local file system whose times come from this
/// kernel's clock (ext4, XFS, Btrfs, tmpfs, overlayfs, F2FS, bcachefs, ZFS).
#[cfg(target_os = "linux")]
fn local(root: &Path) -> bool {
    const LOCAL: [i64; 8] = [
        0xEF53,      // ext2, ext3, ext4
        0x5846_5342, // XFS
        0x9123_683E, // Btrfs
        0x0102_1994, // tmpfs
        0x794C_7630, // overlayfs
        0xF2F5_2010, // F2FS
        0xCA45_1A4E, // bcachefs
        0x2FC1_2FC1, // ZFS
    ];
    // `f_type` is an i64 here, narrower on other architectures.
    #[allow(clippy::unnecessary_cast)]
    let local = |s: rustix::fs::StatFs| LOCAL.contains(&(s.f_type as i64));
    rustix::fs::statfs(root).is_ok_and(local)
}

#[cfg(not(target_os = "linux"))]
fn local(_root: &Path) -> bool {
    false
}

/// Whether a place's state is the symlink `enabled` wants there.
pub(super) fn in_place(state: &LinkState, entry: &Path) -> bool {
    matches!(state, LinkState::Symlink { target } if target == entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stamp vouches only once its change time is older than the
    /// settling time when it was read (git's racy index): one read in the
    /// same tick as the change does not, nor one from the future.
    #[test]
    fn a_stamp_read_right_after_its_change_does_not_vouch() {
        let at = |ns: i128| format!("66306 1234 {ns} {ns}");
        let read_at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let now = 1_800_000_000 * 1_000_000_000_i128;
        let settled_ns = SETTLED.as_nanos() as i128;
        assert!(
            settled(&at(now - settled_ns - 1), read_at),
            "honest: old enough"
        );
        assert!(!settled(&at(now - settled_ns), read_at));
        assert!(!settled(&at(now - 1_000_000), read_at), "same tick");
        assert!(!settled(&at(now), read_at));
        assert!(!settled(&at(now + 5_000_000_000), read_at), "in the future");
        assert!(!settled("not a stamp", read_at));
    }
}
