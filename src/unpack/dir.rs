//! A local skill folder (path and git sources), copied under the archive
//! rules. Entries are examined with `lstat` and never followed: a symlink in
//! a source tree is refused, so no content from outside the folder can be
//! copied in (a peer's known failure, see REFERENCES.md).
//!
//! On Unix the walk is race-free (docs/threat-model.md, "other local
//! users"): every folder and file is opened *relative to its parent's open
//! folder* with `openat(…, O_NOFOLLOW)`, and what was opened must be of the
//! kind the listing said (a folder opened with `O_DIRECTORY`, a file whose
//! `fstat` on the open descriptor says regular file). A folder or file
//! swapped for a symlink between the look and the open is refused, never
//! followed, so nothing outside the folder (`~/.ssh/id_rsa`) can be read
//! into the store.
//!
//! The look is the kind the folder listing gives (`d_type`; `lstat` only
//! where the file system does not say), and the one `fstat` of an open file
//! gives its executable bit: about 3 system calls per file besides the
//! reads and writes (docs/performance.md#what-the-measurements-decided).

#[cfg(not(unix))]
use std::fs::{self, File};
use std::path::Path;
#[cfg(not(unix))]
use std::path::PathBuf;

use super::UnpackError;
use super::writer::TreeWriter;
#[cfg(not(unix))]
use super::{Problem, SKIPPED_ROOT_DIRS, UnpackRule};

#[cfg(unix)]
pub(super) fn copy(source: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    beneath::copy(source, tree, &mut |_| {})
}

/// Folders nested deeper than this are refused (each level holds one open
/// folder while its children are copied).
#[cfg(unix)]
const MAX_DEPTH: usize = 64;

#[cfg(unix)]
mod beneath {
    use std::ffi::CString;
    use std::fs::File;
    use std::os::fd::OwnedFd;
    use std::path::Path;

    #[cfg(not(target_os = "linux"))]
    use rustix::fs::Dir;
    use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, fstat, openat, statat};

    use super::super::writer::TreeWriter;
    use super::super::{Problem, SKIPPED_ROOT_DIRS, UnpackError, UnpackRule};
    use super::{MAX_DEPTH, joined};

    /// Copies `source` into `tree`. `examined` is called with each entry's
    /// tree path after it was examined and before it is opened: where a
    /// racing writer would swap it (tests swap it there).
    pub(in super::super) fn copy(
        source: &Path,
        tree: &mut TreeWriter,
        examined: &mut dyn FnMut(&str),
    ) -> Result<(), UnpackError> {
        // The root itself is what the user named: it may be reached through a link.
        let root = openat(
            CWD,
            source,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| {
            if e == rustix::io::Errno::NOTDIR {
                tree.refuse(
                    None,
                    UnpackRule::Corrupt(format!("{} is not a folder", source.display())),
                )
            } else {
                tree.error(None, Problem::io("read", source)(e.into()))
            }
        })?;
        copy_dir(source, &root, "", tree, examined, 0)
    }

    fn copy_dir(
        source: &Path,
        dir: &OwnedFd,
        rel: &str,
        tree: &mut TreeWriter,
        examined: &mut dyn FnMut(&str),
        depth: usize,
    ) -> Result<(), UnpackError> {
        let here = source.join(rel);
        let io = |action: &'static str, e: rustix::io::Errno| Problem::io(action, &here)(e.into());
        if depth > MAX_DEPTH {
            return Err(tree.refuse(
                Some(rel),
                UnpackRule::Corrupt(format!("folders nested more than {MAX_DEPTH} deep")),
            ));
        }
        let mut names = list(dir).map_err(|e| tree.error(None, io("list", e)))?;
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (c_name, listed) in names {
            let Ok(name) = c_name.to_str() else {
                let shown = joined(rel, &c_name.to_string_lossy());
                return Err(tree.refuse(Some(&shown), crate::names::NameRule::NotUtf8));
            };
            if rel.is_empty() && SKIPPED_ROOT_DIRS.contains(&name) {
                continue;
            }
            let rel_name = joined(rel, name);
            let kind = match listed {
                FileType::Unknown => {
                    let stat = statat(dir, c_name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW)
                        .map_err(|e| tree.error(Some(&rel_name), io("read", e)))?;
                    FileType::from_raw_mode(stat.st_mode)
                }
                known => known,
            };
            examined(&rel_name);
            let replaced = |tree: &TreeWriter| {
                tree.refuse(
                    Some(&rel_name),
                    UnpackRule::Corrupt("it was replaced while being copied; try again".into()),
                )
            };
            let nofollow = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match kind {
                FileType::Symlink => return Err(tree.refuse(Some(&rel_name), UnpackRule::Symlink)),
                FileType::Directory => {
                    tree.add_dir(&rel_name)?;
                    // O_DIRECTORY | O_NOFOLLOW: a folder, never a link to one.
                    let Ok(fd) = openat(
                        dir,
                        c_name.as_c_str(),
                        nofollow | OFlags::DIRECTORY,
                        Mode::empty(),
                    ) else {
                        return Err(replaced(tree));
                    };
                    copy_dir(source, &fd, &rel_name, tree, examined, depth + 1)?;
                }
                FileType::RegularFile => {
                    // NONBLOCK: a FIFO swapped in must not hang the open.
                    let Ok(fd) = openat(
                        dir,
                        c_name.as_c_str(),
                        nofollow | OFlags::NONBLOCK,
                        Mode::empty(),
                    ) else {
                        return Err(replaced(tree));
                    };
                    // One fstat on what was opened: its kind and its mode.
                    let Ok(stat) = fstat(&fd) else {
                        return Err(replaced(tree));
                    };
                    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
                        return Err(replaced(tree));
                    }
                    let executable = stat.st_mode & 0o100 != 0;
                    let mut file = File::from(fd);
                    let path = source.join(&rel_name);
                    tree.copy_file(
                        &rel_name,
                        executable,
                        &mut file,
                        &mut |_| Ok(()),
                        &Problem::io("read", &path),
                    )?;
                }
                other => {
                    let what = match other {
                        FileType::Fifo => "FIFO",
                        FileType::Socket => "socket",
                        FileType::CharacterDevice => "character device",
                        FileType::BlockDevice => "block device",
                        _ => "special file",
                    };
                    return Err(tree.refuse(Some(&rel_name), UnpackRule::Special(what.into())));
                }
            }
        }
        Ok(())
    }

    /// The names in the open folder `dir` and the kind the listing gives
    /// (`Unknown` where the file system does not say), `.` and `..` left out.
    #[cfg(target_os = "linux")]
    fn list(dir: &OwnedFd) -> rustix::io::Result<Vec<(CString, FileType)>> {
        // Read through the descriptor itself (no second open of the folder);
        // a buffer too small for a name is grown and the listing restarted.
        let mut buf: Vec<u8> = Vec::with_capacity(8192);
        'read: loop {
            let mut out = Vec::new();
            let mut listing = rustix::fs::RawDir::new(dir, buf.spare_capacity_mut());
            while let Some(item) = listing.next() {
                let item = match item {
                    Err(rustix::io::Errno::INVAL) => {
                        let grown = buf.capacity() * 2;
                        buf.reserve(grown);
                        rustix::fs::seek(dir, rustix::fs::SeekFrom::Start(0))?;
                        continue 'read;
                    }
                    other => other?,
                };
                let name = item.file_name();
                if name.to_bytes() != b"." && name.to_bytes() != b".." {
                    out.push((name.to_owned(), item.file_type()));
                }
            }
            return Ok(out);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn list(dir: &OwnedFd) -> rustix::io::Result<Vec<(CString, FileType)>> {
        let mut out = Vec::new();
        for item in Dir::read_from(dir)? {
            let item = item?;
            let name = item.file_name();
            if name.to_bytes() != b"." && name.to_bytes() != b".." {
                out.push((name.to_owned(), item.file_type()));
            }
        }
        Ok(out)
    }
}

#[cfg(not(unix))]
pub(super) fn copy(source: &Path, tree: &mut TreeWriter) -> Result<(), UnpackError> {
    let io = Problem::io;
    // The root itself is what the user named: it may be reached through a link.
    let root_meta = fs::metadata(source).map_err(|e| tree.error(None, io("read", source)(e)))?;
    if !root_meta.is_dir() {
        return Err(tree.refuse(
            None,
            UnpackRule::Corrupt(format!("{} is not a folder", source.display())),
        ));
    }
    // Depth-first with an explicit stack: no recursion, no handles held open.
    let mut pending: Vec<(PathBuf, String)> = vec![(source.to_owned(), String::new())];
    while let Some((dir, rel)) = pending.pop() {
        let mut items = Vec::new();
        for item in fs::read_dir(&dir).map_err(|e| tree.error(None, io("list", &dir)(e)))? {
            items.push(item.map_err(|e| tree.error(None, io("list", &dir)(e)))?);
        }
        items.sort_by_key(|item| item.file_name());
        for item in items {
            let os_name = item.file_name();
            let path = item.path();
            let Some(name) = os_name.to_str() else {
                let shown = joined(&rel, &os_name.to_string_lossy());
                return Err(tree.refuse(Some(&shown), crate::names::NameRule::NotUtf8));
            };
            if rel.is_empty() && SKIPPED_ROOT_DIRS.contains(&name) {
                continue;
            }
            let rel_name = joined(&rel, name);
            let meta = item
                .metadata()
                .map_err(|e| tree.error(Some(&rel_name), io("read", &path)(e)))?;
            let file_type = meta.file_type();
            if file_type.is_symlink() {
                return Err(tree.refuse(Some(&rel_name), UnpackRule::Symlink));
            } else if file_type.is_dir() {
                tree.add_dir(&rel_name)?;
                pending.push((path, rel_name));
            } else if file_type.is_file() {
                let mut file = File::open(&path)
                    .map_err(|e| tree.error(Some(&rel_name), io("open", &path)(e)))?;
                if !same_file(&meta, &file) {
                    return Err(tree.refuse(
                        Some(&rel_name),
                        UnpackRule::Corrupt(
                            "the file was replaced while being copied; try again".into(),
                        ),
                    ));
                }
                let executable = crate::digest::is_executable(&meta);
                tree.copy_file(
                    &rel_name,
                    executable,
                    &mut file,
                    &mut |_| Ok(()),
                    &io("read", &path),
                )?;
            } else {
                return Err(tree.refuse(
                    Some(&rel_name),
                    UnpackRule::Special(special_kind(&file_type).into()),
                ));
            }
        }
    }
    Ok(())
}

/// `name` inside the tree-relative folder `rel` (`""`: the root).
fn joined(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_owned()
    } else {
        format!("{rel}/{name}")
    }
}

#[cfg(not(unix))]
fn same_file(_examined: &fs::Metadata, opened: &File) -> bool {
    opened.metadata().is_ok_and(|m| m.is_file())
}

#[cfg(not(unix))]
fn special_kind(file_type: &fs::FileType) -> &'static str {
    let _ = file_type;
    "special file"
}

#[cfg(all(test, unix))]
mod tests {
    use std::path::Path;

    use super::super::Limits;
    use super::super::writer::TreeWriter;

    /// A skill folder with `SKILL.md` and `refs/API.md`, and a folder
    /// outside it holding a secret.
    fn world(root: &Path) {
        std::fs::create_dir_all(root.join("skill/refs")).unwrap();
        std::fs::write(root.join("skill/SKILL.md"), "---\nname: skill\n---\n").unwrap();
        std::fs::write(root.join("skill/refs/API.md"), "api\n").unwrap();
        std::fs::create_dir_all(root.join("ssh")).unwrap();
        std::fs::write(root.join("ssh/id_rsa"), "SECRET KEY\n").unwrap();
        std::fs::write(root.join("ssh/API.md"), "SECRET KEY\n").unwrap();
    }

    /// Copies `root/skill`, letting `swap` act between each entry's look
    /// and its open; returns the outcome and every byte staged.
    fn copy_racing(root: &Path, swap: &dyn Fn(&str)) -> (bool, String) {
        let staging = root.join("staging");
        std::fs::create_dir_all(&staging).unwrap();
        let mut tree = TreeWriter::new(&staging, "skill", &Limits::default());
        let ok = super::beneath::copy(&root.join("skill"), &mut tree, &mut |rel| swap(rel)).is_ok();
        let mut staged = String::new();
        for entry in walk(&staging) {
            staged.push_str(&std::fs::read_to_string(entry).unwrap_or_default());
        }
        (ok, staged)
    }

    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let t = e.file_type().unwrap();
            if t.is_dir() {
                out.extend(walk(&e.path()));
            } else if t.is_file() {
                out.push(e.path());
            }
        }
        out
    }

    #[test]
    fn an_honest_folder_is_copied_whole() {
        let tmp = tempfile::tempdir().unwrap();
        world(tmp.path());
        let (ok, staged) = copy_racing(tmp.path(), &|_| {});
        assert!(ok);
        assert!(staged.contains("api\n"), "{staged}");
    }

    #[test]
    fn a_folder_swapped_for_a_symlink_mid_copy_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        world(tmp.path());
        let root = tmp.path().to_owned();
        let (ok, staged) = copy_racing(tmp.path(), &|rel| {
            if rel == "refs" {
                std::fs::rename(root.join("skill/refs"), root.join("moved")).unwrap();
                std::os::unix::fs::symlink(root.join("ssh"), root.join("skill/refs")).unwrap();
            }
        });
        assert!(!ok, "the swapped folder must be refused");
        assert!(!staged.contains("SECRET"), "{staged}");
    }

    #[test]
    fn a_file_swapped_for_a_symlink_mid_copy_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        world(tmp.path());
        let root = tmp.path().to_owned();
        let (ok, staged) = copy_racing(tmp.path(), &|rel| {
            if rel == "refs/API.md" {
                std::fs::remove_file(root.join("skill/refs/API.md")).unwrap();
                std::os::unix::fs::symlink(root.join("ssh/id_rsa"), root.join("skill/refs/API.md"))
                    .unwrap();
            }
        });
        assert!(!ok, "the swapped file must be refused");
        assert!(!staged.contains("SECRET"), "{staged}");
    }
}
