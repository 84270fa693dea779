//! Spreading a folder's subfolders over the file system's block groups.
//!
//! ext4 (without a journal, as on many CI runners and cloud disks) will not
//! reuse an inode freed in the last minute or so: each new inode is found
//! by scanning past every recently freed one near its goal, which is its
//! parent folder. A CI job that just deleted the last run's cache and
//! projects leaves thousands of them where the new store is about to go,
//! and every file created there pays a scan through all of them: perf put
//! 75 % of a cold 500-skill `add` in that scan (docs/performance.md#what-the-measurements-decided).
//!
//! A folder marked `TOPDIR` (`chattr +T`) has its subfolders placed by
//! ext4's Orlov allocator in block groups with many free inodes, spread over
//! the disk, as the top-level folders of a file system are: each store
//! entry then starts in a group with (almost) no recently freed inodes, and
//! its files with it. It changes only where new folders go, never what they
//! hold. Other file systems ignore or refuse the flag; so do we.

use std::path::Path;

/// Marks `dir` so its new subfolders are spread over the disk (ext4's
/// `TOPDIR`). Best effort: a file system without the flag is left as is.
pub fn spread_subfolders(dir: &Path) {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{IFlags, ioctl_getflags, ioctl_setflags};
        let Ok(folder) = std::fs::File::open(dir) else {
            return;
        };
        if let Ok(flags) = ioctl_getflags(&folder)
            && !flags.contains(IFlags::TOPDIR)
        {
            let _ = ioctl_setflags(&folder, flags | IFlags::TOPDIR);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dir;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn a_folder_on_ext4_is_marked_and_elsewhere_left_usable() {
        use rustix::fs::{IFlags, ioctl_getflags, statfs};
        const EXT4_SUPER_MAGIC: i64 = 0xEF53;
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        std::fs::create_dir(&store).unwrap();
        super::spread_subfolders(&store);
        super::spread_subfolders(&store); // again: nothing changes
        let open = || std::fs::File::open(&store).unwrap();
        if statfs(&store).unwrap().f_type as i64 == EXT4_SUPER_MAGIC {
            assert!(ioctl_getflags(open()).unwrap().contains(IFlags::TOPDIR));
        }
        std::fs::create_dir(store.join("entry")).unwrap();
        std::fs::write(store.join("entry/SKILL.md"), "x").unwrap();
    }
}
