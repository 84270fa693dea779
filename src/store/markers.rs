//! Completeness markers: durability without an fsync per file, and on Linux
//! without any flush; and the cheap check that an entry is still what was
//! stored.
//!
//! Entries are written without flushing their files. Once an install's
//! entries are in place, each gets the marker `store/sha256-<hex>.complete`:
//!
//! ```text
//! skillpm-complete 4 sha256:<hex> <number of files> <epoch>
//! d <mtime-ns> <ctime-ns> <inode> .            the entry's folders (an added or
//! d <mtime-ns> <ctime-ns> <inode> scripts      removed file changes its folder)
//! f <size> <mtime-ns> <ctime-ns> <inode> <digest hex> <x|-> SKILL.md
//! f <size> <mtime-ns> <ctime-ns> <inode> <digest hex> <x|-> scripts/run.sh
//! mac <hex>
//! ```
//!
//! Since version 3 the marker is also the entry's file list (each file's
//! digest and executable bit), which [`listed_tree`] reads back: it hashes
//! to the entry's name or is ignored, so it needs no trust in the marker's
//! epoch. A separate record per stored tree (`state/trees/`) was one more
//! file created per skill on every cold install; such a record is now
//! written only when an entry leaves the store, so `update` can still diff
//! against an approved version whose bytes are gone (`super::trees`).
//!
//! Version 4 (issue 34) adds each file's and folder's change time (ctime)
//! and inode, and an HMAC by the user's record key (`crate::trust::RecordKey`)
//! over the rest. An edit that keeps a file's size and mtime (`touch -r`,
//! or an agent writing through a symlink placement) still moves its ctime,
//! which no user-space writer can set back, and a cache writer cannot write
//! a marker that describes the edited file without the key: the entry is
//! re-hashed before its next use and quarantined (docs/threat-model.md).
//! Markers of earlier versions are not believed; their entries are
//! re-hashed once and sealed again.
//!
//! `<epoch>` says why the marker may be believed:
//!
//! - a boot id ([`crate::fs::durable::boot_epoch`]): the entry was complete in
//!   the page cache during that boot. Nothing is flushed. A killed process
//!   loses nothing of the page cache, so within the same boot the marker is
//!   true; after a machine crash the boot id differs, the marker is not
//!   trusted, and the entry is re-hashed (and re-sealed) before its next use.
//!   An install therefore never waits for other processes' unsynced writes,
//!   which a flush of the whole file system (`syncfs`) did on a busy CI runner.
//! - `flushed`: the cache's file system was flushed before the marker was
//!   written (systems that do not name their boot); true in any boot.
//!
//! An entry whose marker matches what `stat` says (and whose epoch and MAC
//! hold) is trusted without reading a byte; `cache verify` always re-hashes
//! everything. Markers are written and removed under the commit lock.
//!
//! A project's **sealed set** (`state/sealed-sets/<project>`, [`write_set`],
//! [`set_holds`]) is the stat lines of every entry's marker in one record,
//! written when all of them held, MAC'd over the digest of exactly that set
//! and held only in the boot it was written in: a no-op install reads that
//! one file instead of 500 markers and checks the same stamps
//! (docs/performance.md#the-no-op-install). It is never a file list, nor a
//! reason to keep an entry: when it does not hold, each marker is read.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::digest::{Digest, HashedTree};
use crate::trust::RecordKey;

/// Suffix of a marker beside its entry.
pub(crate) const MARKER_SUFFIX: &str = ".complete";
/// Header of the markers written now (stat stamps with ctime and inode, a
/// MAC), and of the ones before (file list, no MAC): still read for their
/// file list, never believed as a seal.
const HEADER: &str = "skillpm-complete 4";
const HEADER_V3: &str = "skillpm-complete 3";
/// The epoch of a marker written after a flush: true in every boot.
pub(crate) const FLUSHED: &str = "flushed";
/// What the MAC of a marker binds (no other record's MAC can stand for one).
const MAC_KIND: &[u8] = b"store-marker";

/// `store/sha256-<hex>.complete`.
pub(crate) fn marker_path(store_dir: &Path, digest: &Digest) -> PathBuf {
    store_dir.join(format!("{}{MARKER_SUFFIX}", digest.file_name()))
}

/// What `stat` says of a file or folder that an edit would change:
/// `<mtime-ns> <ctime-ns> <inode>`.
#[cfg(unix)]
fn stamp(meta: &fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
    format!(
        "{} {} {}",
        ns(meta.mtime(), meta.mtime_nsec()),
        ns(meta.ctime(), meta.ctime_nsec()),
        meta.ino()
    )
}

/// What one `stat` of a marker line's folder or file saw.
struct Seen {
    dir: bool,
    file: bool,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    inode: u64,
}

impl Seen {
    #[cfg(unix)]
    fn of(meta: &fs::Metadata) -> Seen {
        use std::os::unix::fs::MetadataExt;
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        Seen {
            dir: meta.is_dir(),
            file: meta.is_file(),
            size: meta.len(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
            inode: meta.ino(),
        }
    }

    #[cfg(not(unix))]
    fn of(meta: &fs::Metadata) -> Seen {
        let ns = |t: io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128)
        };
        Seen {
            dir: meta.is_dir(),
            file: meta.is_file(),
            size: meta.len(),
            mtime_ns: ns(meta.modified()),
            ctime_ns: ns(meta.created()),
            inode: 0,
        }
    }

    /// What `statx` gave (the same fields as [`Seen::of`]).
    #[cfg(target_os = "linux")]
    fn of_statx(st: &rustix::fs::Statx) -> Seen {
        use rustix::fs::FileType;
        let ns = |t: rustix::fs::StatxTimestamp| {
            i128::from(t.tv_sec) * 1_000_000_000 + i128::from(t.tv_nsec)
        };
        let kind = FileType::from_raw_mode(st.stx_mode.into());
        Seen {
            dir: kind == FileType::Directory,
            file: kind == FileType::RegularFile,
            size: st.stx_size,
            mtime_ns: ns(st.stx_mtime),
            ctime_ns: ns(st.stx_ctime),
            inode: st.stx_ino,
        }
    }

    /// Whether this is what `stamped` (a [`stamp`] read back) says:
    /// compared as numbers, since formatting three figures per file as
    /// text was most of the check's cost in a no-op install
    /// (docs/performance.md#the-no-op-install).
    fn matches(&self, stamped: &str) -> bool {
        let mut parts = stamped.split(' ');
        let mut next = || parts.next().and_then(|p| p.parse::<i128>().ok());
        next() == Some(self.mtime_ns)
            && next() == Some(self.ctime_ns)
            && next() == Some(i128::from(self.inode))
            && parts.next().is_none()
    }
}

#[cfg(not(unix))]
fn stamp(meta: &fs::Metadata) -> String {
    let ns = |t: io::Result<std::time::SystemTime>| {
        t.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos())
    };
    format!("{} {} 0", ns(meta.modified()), ns(meta.created()))
}

/// The folders of a tree below its root: exactly the parents of its files
/// (the unpacker creates no others).
pub(crate) fn folders(tree: &HashedTree) -> std::collections::BTreeSet<&str> {
    let mut dirs = std::collections::BTreeSet::new();
    for file in &tree.files {
        for (i, _) in file.path.match_indices('/') {
            dirs.insert(&file.path[..i]);
        }
    }
    dirs
}

/// The marker text for `entry` as it is on disk now, without its MAC line;
/// `epoch` is a boot id or [`FLUSHED`].
fn describe(entry: &Path, tree: &HashedTree, epoch: &str) -> io::Result<String> {
    let mut text = format!("{HEADER} {} {} {epoch}\n", tree.digest, tree.files.len());
    for dir in std::iter::once(".").chain(folders(tree)) {
        let meta = fs::symlink_metadata(entry.join(dir))?;
        text.push_str(&format!("d {} {dir}\n", stamp(&meta)));
    }
    for file in &tree.files {
        let meta = fs::symlink_metadata(entry.join(&file.path))?;
        let mode = if file.executable { 'x' } else { '-' };
        text.push_str(&format!(
            "f {} {} {} {mode} {}\n",
            meta.len(),
            stamp(&meta),
            file.digest.hex(),
            file.path
        ));
    }
    Ok(text)
}

/// The MAC of a marker's text for `digest`.
fn mac_parts<'a>(digest: &'a str, body: &'a str) -> [&'a [u8]; 3] {
    [MAC_KIND, digest.as_bytes(), body.as_bytes()]
}

/// Writes the marker of an entry whose bytes are complete in this boot's page
/// cache (`epoch` = the boot id) or already flushed (`epoch` = [`FLUSHED`]),
/// MAC'd by `key` (without a key the marker still lists the files, but
/// never seals: the entry is re-hashed before each use). `seed`: an empty
/// file made for it when the entry was staged, written and renamed into
/// place (see `seed_marker` in the store's module).
pub(crate) fn write_marker(
    store_dir: &Path,
    tree: &HashedTree,
    epoch: &str,
    key: Option<&RecordKey>,
    seed: Option<&Path>,
) -> io::Result<()> {
    let entry = store_dir.join(tree.digest.file_name());
    let mut text = describe(&entry, tree, epoch)?;
    if let Some(key) = key {
        let digest = tree.digest.to_string();
        let mac = key.mac_hex(&mac_parts(&digest, &text));
        text.push_str(&format!("mac {mac}\n"));
    }
    let path = marker_path(store_dir, &tree.digest);
    // The seed is written through a handle that never follows a link (a
    // cache writer may have swapped one in since it was made), then renamed
    // over whatever bears the marker's name: nothing outside is written.
    // Not opened to truncate: the seed was made empty, and on ext4 a file
    // truncated to nothing has its blocks written out when it is closed
    // (`auto_da_alloc`, for editors that rewrite a file in place): a write
    // to the disk per marker, most of the time of closing them
    // (docs/performance.md#what-the-measurements-decided). A seed that is
    // not empty is not ours as made: the marker is made anew instead.
    if let Some(seed) = seed {
        let mut options = fs::OpenOptions::new();
        options.write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut options,
            rustix::fs::OFlags::NOFOLLOW.bits() as i32,
        );
        let written = options.open(seed).and_then(|mut file| {
            if file.metadata()?.len() != 0 {
                return Err(io::Error::other("the marker's seed is not empty"));
            }
            io::Write::write_all(&mut file, text.as_bytes())
        });
        if written.and_then(|()| fs::rename(seed, &path)).is_ok() {
            return Ok(());
        }
    }
    // Without a seed: what bears the marker's name (an older marker, or a
    // link a cache writer planted there to a file of the user's) is removed,
    // never written through, and the marker made anew.
    match fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut file = crate::fs::create_new(&path, 0o644)?;
    io::Write::write_all(&mut file, text.as_bytes())
}

/// Whether `entry` has a marker for `digest` that still matches every
/// folder's and file's size, mtime, ctime and inode, written in this boot
/// or after a flush and MAC'd by `key`: the cheap check before linking.
pub(crate) fn is_sealed(store_dir: &Path, digest: &Digest, key: Option<&RecordKey>) -> bool {
    sealed_lines(store_dir, digest, key).is_some()
}

/// [`is_sealed`], giving the marker's stat lines (its `d` and `f` lines,
/// checked just now) for a [set's record](write_set).
pub(crate) fn sealed_lines(
    store_dir: &Path,
    digest: &Digest,
    key: Option<&RecordKey>,
) -> Option<String> {
    sealed_lines_in(store_dir, digest, crate::fs::durable::boot_epoch(), key)
}

/// [`sealed_lines`] as seen from the boot `current` (None: a system that
/// does not name its boots, where only flushed markers hold).
fn sealed_lines_in(
    store_dir: &Path,
    digest: &Digest,
    current: Option<&str>,
    key: Option<&RecordKey>,
) -> Option<String> {
    let key = key?;
    let text = read_marker(&marker_path(store_dir, digest))?;
    let digest_text = digest.to_string();
    let body = mac_checked(&text, |body, mac| {
        key.verify_hex(&mac_parts(&digest_text, body), mac)
    })?;
    let (header, lines) = body.split_once('\n')?;
    let count = header_count(header, digest, current)?;
    let entry = store_dir.join(digest.file_name());
    let stat = |rel: &str| {
        fs::symlink_metadata(entry.join(rel))
            .ok()
            .map(|m| Seen::of(&m))
    };
    (lines_hold(lines, stat) == Some(count)).then(|| lines.to_owned())
}

/// [`is_sealed`], giving the entry's file list (digests and executable
/// bits, as sealed: a `chmod` since moves the ctime) when the seal holds,
/// so a caller needs neither a second read of the marker nor a `stat` of
/// each file for its mode.
pub(crate) fn sealed_tree(
    store_dir: &Path,
    digest: &Digest,
    key: Option<&RecordKey>,
) -> Option<HashedTree> {
    sealed_tree_in(store_dir, digest, crate::fs::durable::boot_epoch(), key)
}

/// [`sealed_tree`] as seen from the boot `current`.
fn sealed_tree_in(
    store_dir: &Path,
    digest: &Digest,
    current: Option<&str>,
    key: Option<&RecordKey>,
) -> Option<HashedTree> {
    let lines = sealed_lines_in(store_dir, digest, current, key)?;
    let mut files = Vec::new();
    for line in lines.lines() {
        if let Some(("f", rest)) = line.split_once(' ') {
            let f = file_line(rest, HEADER)?;
            files.push(crate::digest::TreeFile {
                path: f.path.to_owned(),
                size: f.size.parse().ok()?,
                digest: Digest::from_hex(f.digest)?,
                executable: f.executable,
            });
        }
    }
    // The MAC says the list is what was sealed; its own digest says it is
    // the entry's (the key alone would not).
    let tree = HashedTree::from_files(files);
    (tree.digest == *digest).then_some(tree)
}

/// The body of a record whose last line is `mac <hex>`, when `verify(body,
/// mac)` holds; a record torn by a crash has no MAC line.
fn mac_checked(text: &str, verify: impl FnOnce(&str, &str) -> bool) -> Option<&str> {
    let body_end = text.strip_suffix('\n')?.rfind('\n')?;
    let (body, mac_line) = text.split_at(body_end + 1);
    let mac = mac_line.trim_end().strip_prefix("mac ")?;
    verify(body, mac).then_some(body)
}

/// Whether every `d` and `f` line of a version-4 marker still matches the
/// folder or file it names, as `stat` (one `statx` of a path relative to
/// the entry) sees it: the number of files, or `None` at the first that
/// does not (or no file at all).
fn lines_hold(lines: &str, stat: impl Fn(&str) -> Option<Seen>) -> Option<usize> {
    let mut files = 0;
    for line in lines.lines() {
        let ok = match line.split_once(' ') {
            Some(("d", rest)) => dir_line(rest).is_some_and(|(stamped, dir)| {
                stat(dir).is_some_and(|m| m.dir && m.matches(stamped))
            }),
            Some(("f", rest)) => {
                files += 1;
                file_line(rest, HEADER).is_some_and(|f| {
                    stat(f.path).is_some_and(|m| {
                        m.file && f.size.parse() == Ok(m.size) && m.matches(f.stamp)
                    })
                })
            }
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    (files > 0).then_some(files)
}

/// Stats the folders and files of many entries of the store folder
/// `store_dir`: on Linux each `statx` is relative to the store folder,
/// opened once, so it walks only `<entry>/<path>`, not the cache's own
/// path, and builds no path per line (docs/performance.md#the-no-op-install).
struct StoreStat<'s> {
    store_dir: &'s Path,
    #[cfg(target_os = "linux")]
    fd: Option<rustix::fd::OwnedFd>,
}

impl<'s> StoreStat<'s> {
    fn open(store_dir: &'s Path) -> Self {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = rustix::fs::open(store_dir, flags, Mode::empty()).ok();
            StoreStat { store_dir, fd }
        }
        #[cfg(not(target_os = "linux"))]
        StoreStat { store_dir }
    }

    /// What `<entry>/<rel>` is (its last part not followed, as
    /// `symlink_metadata`), `rel` being `.` for the entry itself.
    fn stat(&self, entry: &str, rel: &str) -> Option<Seen> {
        #[cfg(target_os = "linux")]
        if let Some(fd) = &self.fd {
            use rustix::fs::{AtFlags, StatxFlags};
            let mut path = String::with_capacity(entry.len() + rel.len() + 1);
            path.push_str(entry);
            path.push('/');
            path.push_str(rel);
            let flags = AtFlags::SYMLINK_NOFOLLOW;
            let mask = StatxFlags::BASIC_STATS;
            return rustix::fs::statx(fd, path.as_str(), flags, mask)
                .ok()
                .map(|st| Seen::of_statx(&st));
        }
        let path = self.store_dir.join(entry).join(rel);
        fs::symlink_metadata(path).ok().map(|m| Seen::of(&m))
    }
}

/// Header of a set's record ([`write_set`]).
const SET_HEADER: &str = "skillpm-sealed-set 1";
/// What the MAC of a set's record binds.
const SET_MAC_KIND: &[u8] = b"store-sealed-set";

/// The digest naming a set of entries (sorted, each once).
pub(crate) fn set_digest(digests: &[Digest]) -> Digest {
    let mut text = String::with_capacity(digests.len() * 72);
    for d in digests {
        text.push_str(&d.to_string());
        text.push('\n');
    }
    Digest::of_bytes(text.as_bytes())
}

/// Writes `path`, the record of a set of entries (`set`, sorted, each
/// once, with the stat lines [`sealed_lines`] checked for each in this
/// run): their markers in one file, so a later run checks the same stamps
/// after reading one file instead of one marker per entry
/// (docs/performance.md#the-no-op-install). It holds only in this boot
/// (whatever the markers' epochs) and is MAC'd by `key` over the set's
/// digest. Best effort: a record not written is a record not used.
pub(crate) fn write_set(path: &Path, set: &[(Digest, String)], key: &RecordKey) {
    let Some(epoch) = crate::fs::durable::boot_epoch() else {
        return;
    };
    let digests: Vec<Digest> = set.iter().map(|(d, _)| *d).collect();
    let named = set_digest(&digests).to_string();
    let mut text = format!("{SET_HEADER} {named} {epoch}\n");
    for (digest, lines) in set {
        let files = lines.lines().filter(|l| l.starts_with("f ")).count();
        text.push_str(&format!("e {digest} {files}\n{lines}"));
    }
    let mac = key.mac_hex(&[SET_MAC_KIND, named.as_bytes(), text.as_bytes()]);
    text.push_str(&format!("mac {mac}\n"));
    if let Some(dir) = path.parent() {
        let _ = fs::create_dir_all(dir);
    }
    let _ = crate::fs::write_replacing(path, text.as_bytes());
}

/// Whether the record at `path` ([`write_set`]) is of exactly the entries
/// `digests` (sorted, each once), written in this boot, MAC'd by `key`, and
/// every stamp in it still matches its folder or file: then each entry is
/// as sealed as its own marker would say, without reading it. Checked on up
/// to one thread per core.
pub(crate) fn set_holds(
    path: &Path,
    store_dir: &Path,
    digests: &[Digest],
    key: Option<&RecordKey>,
) -> bool {
    set_holds_in(
        path,
        store_dir,
        digests,
        crate::fs::durable::boot_epoch(),
        key,
    )
}

/// [`set_holds`] as seen from the boot `current`.
fn set_holds_in(
    path: &Path,
    store_dir: &Path,
    digests: &[Digest],
    current: Option<&str>,
    key: Option<&RecordKey>,
) -> bool {
    let named = set_digest(digests).to_string();
    check_set_in(path, store_dir, Some(&named), current, key).is_some_and(|c| c.held)
}

/// What the record of a set said and whether its stamps held, read before
/// the wanted set is known ([`check_set`]).
pub(crate) struct CheckedSet {
    /// The [`set_digest`] of the entries the record is of.
    pub(crate) named: String,
    /// Whether every stamp in it still matched its folder or file.
    pub(crate) held: bool,
}

impl CheckedSet {
    /// Whether the record is of exactly `digests` (sorted, each once) and
    /// all its stamps held: what [`set_holds`] says.
    pub(crate) fn holds_for(&self, digests: &[Digest]) -> bool {
        self.held && self.named == set_digest(digests).to_string()
    }
}

/// The record at `path` ([`write_set`]) read and checked for whatever set
/// it names: written in this boot, MAC'd by `key` over the set its header
/// names, its entries exactly that set, and each stamp checked against the
/// store. `None` when the record is absent or not to be believed. A no-op
/// install begins this on a thread of its own while it reads the project's
/// files, then asks [`CheckedSet::holds_for`] of the set its lock wants
/// (docs/performance.md#the-no-op-install).
pub(crate) fn check_set(
    path: &Path,
    store_dir: &Path,
    key: Option<&RecordKey>,
) -> Option<CheckedSet> {
    check_set_in(path, store_dir, None, crate::fs::durable::boot_epoch(), key)
}

/// [`check_set`] as seen from the boot `current`; with `expect`, a record
/// of another set is not read further (no stamp is checked).
fn check_set_in(
    path: &Path,
    store_dir: &Path,
    expect: Option<&str>,
    current: Option<&str>,
    key: Option<&RecordKey>,
) -> Option<CheckedSet> {
    let (key, epoch) = (key?, current?);
    let text = fs::read_to_string(path).ok()?;
    let header = text.split_once('\n')?.0;
    let named = header.strip_prefix(SET_HEADER)?.strip_prefix(' ')?;
    let named = named.strip_suffix(epoch)?.strip_suffix(' ')?;
    if expect.is_some_and(|want| want != named) {
        return None;
    }
    let body = mac_checked(&text, |body, mac| {
        key.verify_hex(&[SET_MAC_KIND, named.as_bytes(), body.as_bytes()], mac)
    })?;
    let rest = body.strip_prefix(header)?.strip_prefix('\n')?;
    // One (entry, count, lines) per `e` line.
    let mut entries: Vec<(Digest, usize, &str)> = Vec::new();
    let mut rest = rest;
    while !rest.is_empty() {
        let (head, after) = rest.split_once('\n')?;
        let (digest, count) = head.strip_prefix("e ")?.split_once(' ')?;
        let digest: Digest = digest.parse().ok()?;
        let end = after.find("\ne ").map_or(after.len(), |i| i + 1);
        entries.push((digest, count.parse().ok()?, &after[..end]));
        rest = &after[end..];
    }
    let digests: Vec<Digest> = entries.iter().map(|(d, _, _)| *d).collect();
    if set_digest(&digests).to_string() != named {
        return None;
    }
    let store = StoreStat::open(store_dir);
    let held = crate::fs::parallel::map(&entries, |(digest, count, lines)| {
        let entry = digest.file_name();
        lines_hold(lines, |rel| store.stat(&entry, rel)) == Some(*count)
    })
    .into_iter()
    .all(|held| held);
    Some(CheckedSet {
        named: named.to_owned(),
        held,
    })
}

/// A marker's text in three calls (`open`, one `read`, `close`) where
/// `fs::read_to_string` makes five (a `statx` for the size, a last `read`
/// to see the end): 1,000 calls of a no-op install of 500
/// (docs/performance.md#the-no-op-install). A read that fills less than the
/// buffer is taken as the end; were it not, the text would be cut short,
/// its MAC would not hold and the entry would be hashed again, never
/// trusted.
fn read_marker(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut file = fs::File::open(path).ok()?;
    let mut buf = vec![0; 4096];
    let mut len = 0;
    loop {
        let n = file.read(&mut buf[len..]).ok()?;
        len += n;
        if n == 0 || len < buf.len() {
            break;
        }
        buf.resize(buf.len() * 2, 0);
    }
    buf.truncate(len);
    String::from_utf8(buf).ok()
}

/// The file count of a (version 4) marker's first line, when it names
/// `digest` and its epoch holds in the boot `current`.
fn header_count(line: &str, digest: &Digest, current: Option<&str>) -> Option<usize> {
    let rest = line.strip_prefix(&format!("{HEADER} {digest} "))?;
    let (count, epoch) = rest.split_once(' ')?;
    let holds = epoch == FLUSHED || current == Some(epoch);
    holds.then(|| count.parse().ok()).flatten()
}

/// Splits `n` space-separated fields off the front of `rest`: (the fields
/// as one string, the rest).
fn fields(rest: &str, n: usize) -> Option<(&str, &str)> {
    let mut end = 0;
    for _ in 0..n {
        end += rest[end..].find(' ')? + 1;
    }
    Some((&rest[..end - 1], &rest[end..]))
}

/// One `d` line of a version-4 marker, after the `d `: (stamp, folder).
fn dir_line(rest: &str) -> Option<(&str, &str)> {
    fields(rest, 3)
}

/// One `f` line of a marker, after the `f `.
struct FileLine<'l> {
    size: &'l str,
    /// Version 4: `<mtime> <ctime> <inode>`; version 3: `<mtime>`.
    stamp: &'l str,
    digest: &'l str,
    executable: bool,
    path: &'l str,
}

/// Parses an `f` line of a marker whose header is `header` (version 3 or 4).
fn file_line<'l>(rest: &'l str, header: &str) -> Option<FileLine<'l>> {
    let (size, rest) = rest.split_once(' ')?;
    let (stamp, rest) = fields(rest, if header == HEADER { 3 } else { 1 })?;
    let (digest, rest) = rest.split_once(' ')?;
    let (mode, path) = rest.split_once(' ')?;
    let executable = match mode {
        "x" => true,
        "-" => false,
        _ => return None,
    };
    Some(FileLine {
        size,
        stamp,
        digest,
        executable,
        path,
    })
}

/// The file list a version-3 or -4 marker gives for `digest`, whatever its
/// epoch or MAC and whether or not the entry is still there: it is believed
/// only if it hashes to `digest`.
pub(crate) fn listed_tree(store_dir: &Path, digest: &Digest) -> Option<HashedTree> {
    let text = fs::read_to_string(marker_path(store_dir, digest)).ok()?;
    let mut lines = text.lines();
    let first = lines.next()?;
    let (header, rest) = [HEADER, HEADER_V3]
        .into_iter()
        .find_map(|h| Some((h, first.strip_prefix(&format!("{h} {digest} "))?)))?;
    let count: usize = rest.split_once(' ')?.0.parse().ok()?;
    let mut files = Vec::with_capacity(count);
    for line in lines {
        if let Some(rest) = line.strip_prefix("f ") {
            let f = file_line(rest, header)?;
            files.push(crate::digest::TreeFile {
                path: f.path.to_owned(),
                size: f.size.parse().ok()?,
                digest: Digest::from_hex(f.digest)?,
                executable: f.executable,
            });
        }
    }
    if files.len() != count {
        return None;
    }
    let tree = HashedTree::from_files(files);
    (tree.digest == *digest).then_some(tree)
}

/// Removes an entry's marker (before the entry itself goes). Gone is fine.
pub(crate) fn remove_marker(store_dir: &Path, digest: &Digest) -> io::Result<()> {
    match fs::remove_file(marker_path(store_dir, digest)) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// The digest of a marker's file name, if it is one.
pub(crate) fn marker_digest(name: &str) -> Option<Digest> {
    name.strip_suffix(MARKER_SUFFIX)
        .and_then(Digest::from_file_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::hash_tree;

    fn key(dir: &Path) -> RecordKey {
        RecordKey::load_or_create(dir).unwrap()
    }

    /// An entry of two files (one in a folder) in a fresh store.
    fn stored() -> (tempfile::TempDir, HashedTree, PathBuf) {
        let store = tempfile::tempdir().unwrap();
        let src = store.path().join("staging");
        fs::create_dir_all(src.join("scripts")).unwrap();
        fs::write(src.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        fs::write(src.join("scripts/run.sh"), "echo hi\n").unwrap();
        let tree = hash_tree(&src).unwrap();
        let entry = store.path().join(tree.digest.file_name());
        fs::rename(&src, &entry).unwrap();
        (store, tree, entry)
    }

    #[test]
    fn a_marker_trusts_only_the_tree_it_describes() {
        let (store, tree, entry) = stored();
        let k = key(&store.path().join("k"));
        let k = Some(&k);
        assert!(!is_sealed(store.path(), &tree.digest, k), "no marker yet");
        write_marker(store.path(), &tree, FLUSHED, k, None).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, k));

        // A torn marker (cut at a line end) is not trusted.
        let marker = marker_path(store.path(), &tree.digest);
        let text = fs::read_to_string(&marker).unwrap();
        let cut = text.trim_end().rfind('\n').unwrap() + 1;
        fs::write(&marker, &text[..cut]).unwrap();
        assert!(!is_sealed(store.path(), &tree.digest, k));
        fs::write(&marker, &text).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, k));

        // A file added to a folder, or a file rewritten, breaks the seal
        // (after a pause: the kernel's clock for file times is coarse).
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("scripts/extra"), "x").unwrap();
        assert!(!is_sealed(store.path(), &tree.digest, k));
        fs::remove_file(entry.join("scripts/extra")).unwrap();
        write_marker(store.path(), &tree, FLUSHED, k, None).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, k));
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("SKILL.md"), "---\nname: t\n---\n").unwrap();
        assert!(!is_sealed(store.path(), &tree.digest, k));
        remove_marker(store.path(), &tree.digest).unwrap();
        assert_eq!(
            marker_digest(&format!("{}.complete", tree.digest.file_name())),
            Some(tree.digest)
        );
    }

    #[test]
    fn a_seed_becomes_the_marker_only_while_it_is_the_empty_file_made() {
        let (store, tree, _) = stored();
        let k = key(&store.path().join("k"));
        let k = Some(&k);
        let seed = store.path().join(".stage-seed.1");
        let marker = marker_path(store.path(), &tree.digest);

        // Honest path: the empty seed is written and becomes the marker.
        fs::write(&seed, "").unwrap();
        write_marker(store.path(), &tree, FLUSHED, k, Some(&seed)).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, k));
        assert!(!seed.exists());
        let honest = fs::read_to_string(&marker).unwrap();

        // A cache writer filled the seed before the marker was written
        // (longer than a marker): it is not written into, the marker is
        // made anew, byte for byte the honest one, and sealed.
        remove_marker(store.path(), &tree.digest).unwrap();
        let filled = format!("{honest}{}", "tail of someone else's file\n".repeat(64));
        fs::write(&seed, &filled).unwrap();
        write_marker(store.path(), &tree, FLUSHED, k, Some(&seed)).unwrap();
        assert_eq!(fs::read_to_string(&marker).unwrap(), honest);
        assert!(is_sealed(store.path(), &tree.digest, k));
    }

    /// Issue 34: a file edited in place with its size and mtime kept (as
    /// `touch -r` does) breaks the seal through its ctime; a marker
    /// rewritten to describe the edit needs the key; without a key nothing
    /// is sealed.
    #[test]
    fn an_edit_keeping_size_and_mtime_breaks_the_seal_and_a_rewritten_marker_needs_the_key() {
        let (store, tree, entry) = stored();
        let k = key(&store.path().join("k"));
        write_marker(store.path(), &tree, FLUSHED, Some(&k), None).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, Some(&k)), "honest");

        let file = entry.join("SKILL.md");
        let mtime = fs::metadata(&file).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(&file, "---\nname: X\n---\n").unwrap();
        fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert_eq!(fs::metadata(&file).unwrap().modified().unwrap(), mtime);
        assert!(!is_sealed(store.path(), &tree.digest, Some(&k)));

        // The cache writer rewrites the marker to describe the edited file:
        // without the key it has no valid MAC; with another key neither.
        let marker = marker_path(store.path(), &tree.digest);
        let redone = describe(&entry, &tree, FLUSHED).unwrap();
        fs::write(&marker, &redone).unwrap();
        assert!(!is_sealed(store.path(), &tree.digest, Some(&k)));
        let other = key(&store.path().join("other"));
        write_marker(store.path(), &tree, FLUSHED, Some(&other), None).unwrap();
        assert!(!is_sealed(store.path(), &tree.digest, Some(&k)));
        // The owner of the key sees it as sealed only by re-sealing it.
        write_marker(store.path(), &tree, FLUSHED, Some(&k), None).unwrap();
        assert!(is_sealed(store.path(), &tree.digest, Some(&k)));
        assert!(!is_sealed(store.path(), &tree.digest, None));
    }

    /// The sealed set of a project (one record standing for its entries'
    /// markers): honest first, then each thing that must make it not hold.
    #[test]
    fn a_sealed_set_holds_only_for_its_entries_as_they_were() {
        if crate::fs::durable::boot_epoch().is_none() {
            return; // written only where the boot has a name
        }
        let (store, tree, entry) = stored();
        let k = key(&store.path().join("k"));
        write_marker(store.path(), &tree, FLUSHED, Some(&k), None).unwrap();
        let lines = sealed_lines(store.path(), &tree.digest, Some(&k)).unwrap();
        let record = store.path().join("sets/project");
        let set = [tree.digest];
        // Asked with the set known, and read ahead of knowing it: the two
        // must agree on every case below.
        let holds = |set: &[Digest], k: Option<&RecordKey>| {
            let now = set_holds(&record, store.path(), set, k);
            let ahead = check_set(&record, store.path(), k).is_some_and(|c| c.holds_for(set));
            assert_eq!(now, ahead, "read ahead, the record says otherwise");
            now
        };
        assert!(!holds(&set, Some(&k)), "none written yet");
        write_set(&record, &[(tree.digest, lines.clone())], &k);
        assert!(holds(&set, Some(&k)), "honest");

        // Another set (one entry more or fewer), or no key, or another key.
        let other = Digest::of_bytes(b"another tree");
        let mut two = [tree.digest, other];
        two.sort();
        assert!(!holds(&two[..], Some(&k)));
        assert!(!holds(&[], Some(&k)));
        assert!(!holds(&set, None));
        assert!(!holds(&set, Some(&key(&store.path().join("other")))));
        // After a machine crash (another boot), or where boots have no name.
        let other_boot = Some("0b1d5e5c-0000-4000-8000-000000000002");
        assert!(!set_holds_in(
            &record,
            store.path(),
            &set,
            other_boot,
            Some(&k)
        ));
        assert!(!set_holds_in(&record, store.path(), &set, None, Some(&k)));

        // Its text edited (a count), or torn: not believed.
        let text = fs::read_to_string(&record).unwrap();
        let edited = text.replacen(
            &format!("e {} 2\n", tree.digest),
            &format!("e {} 1\n", tree.digest),
            1,
        );
        assert_ne!(edited, text);
        fs::write(&record, &edited).unwrap();
        assert!(!holds(&set, Some(&k)));
        fs::write(&record, &text[..text.len() - 10]).unwrap();
        assert!(!holds(&set, Some(&k)));
        fs::write(&record, &text).unwrap();
        assert!(holds(&set, Some(&k)));

        // A file added to a folder, or a file rewritten (after a pause: the
        // kernel's clock for file times is coarse).
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("scripts/extra"), "x").unwrap();
        assert!(!holds(&set, Some(&k)));
        fs::remove_file(entry.join("scripts/extra")).unwrap();
        write_marker(store.path(), &tree, FLUSHED, Some(&k), None).unwrap();
        let lines = sealed_lines(store.path(), &tree.digest, Some(&k)).unwrap();
        write_set(&record, &[(tree.digest, lines)], &k);
        assert!(holds(&set, Some(&k)));
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(entry.join("SKILL.md"), "---\nname: t\n---\n").unwrap();
        assert!(!holds(&set, Some(&k)));
    }

    #[test]
    fn a_marker_of_an_unflushed_entry_holds_only_in_its_own_boot() {
        let (store, tree, _) = stored();
        let k = key(&store.path().join("k"));
        let k = Some(&k);
        let (this_boot, next_boot) = (
            "0b1d5e5c-0000-4000-8000-000000000001",
            "0b1d5e5c-0000-4000-8000-000000000002",
        );

        // Honest path: sealed in this boot, trusted in this boot.
        write_marker(store.path(), &tree, this_boot, k, None).unwrap();
        // (Giving the sealed file list, executable bits included.)
        assert_eq!(
            sealed_tree_in(store.path(), &tree.digest, Some(this_boot), k),
            Some(tree.clone())
        );
        // After a machine crash the boot differs: re-hash before use.
        assert!(sealed_tree_in(store.path(), &tree.digest, Some(next_boot), k).is_none());
        // A system that names no boot trusts only flushed markers.
        assert!(sealed_tree_in(store.path(), &tree.digest, None, k).is_none());

        // A flushed marker holds in every boot.
        write_marker(store.path(), &tree, FLUSHED, k, None).unwrap();
        assert!(sealed_tree_in(store.path(), &tree.digest, Some(next_boot), k).is_some());
        assert!(sealed_tree_in(store.path(), &tree.digest, None, k).is_some());
    }

    #[test]
    fn a_marker_lists_its_tree_only_when_the_list_hashes_to_its_name() {
        let store = tempfile::tempdir().unwrap();
        let staging = store.path().join("staging");
        fs::create_dir_all(staging.join("scripts")).unwrap();
        fs::write(staging.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        fs::write(staging.join("scripts/run me.sh"), "echo hi\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let run = staging.join("scripts/run me.sh");
            fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let tree = hash_tree(&staging).unwrap();
        fs::rename(&staging, store.path().join(tree.digest.file_name())).unwrap();

        // Honest path: the list comes back whole, in any boot, paths with
        // spaces and executable bits included, with or without a key.
        let boot = "0b1d5e5c-0000-4000-8000-000000000001";
        write_marker(store.path(), &tree, boot, None, None).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), Some(tree.clone()));
        let k = key(&store.path().join("k"));
        write_marker(store.path(), &tree, boot, Some(&k), None).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), Some(tree.clone()));

        // A list edited to claim other bytes, or cut short, is not believed.
        let marker = marker_path(store.path(), &tree.digest);
        let text = fs::read_to_string(&marker).unwrap();
        let other = crate::digest::Digest::of_bytes(b"evil").hex();
        let forged = text.replacen(&tree.files[0].digest.hex(), &other, 1);
        assert_ne!(forged, text);
        fs::write(&marker, &forged).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);
        let cut = text[..text.find("\nmac ").unwrap()].rfind('\n').unwrap() + 1;
        fs::write(&marker, &text[..cut]).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);
        // The marker of another tree copied under this name lists nothing.
        fs::write(&marker, text.replacen("SKILL.md", "EVIL.md", 1)).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), None);

        // A version-3 marker (no stamps of ctime and inode, no MAC) still
        // lists its files, but seals nothing.
        let v3: String = text
            .lines()
            .filter(|l| !l.starts_with("mac "))
            .map(|l| {
                let l = l.replacen(HEADER, HEADER_V3, 1);
                match l.split_once(' ') {
                    Some(("f", rest)) => {
                        let (size, rest) = rest.split_once(' ').unwrap();
                        let (stamp, rest) = fields(rest, 3).unwrap();
                        let mtime = stamp.split(' ').next().unwrap();
                        format!("f {size} {mtime} {rest}\n")
                    }
                    Some(("d", rest)) => {
                        let (stamp, dir) = fields(rest, 3).unwrap();
                        format!("d {} {dir}\n", stamp.split(' ').next().unwrap())
                    }
                    _ => format!("{l}\n"),
                }
            })
            .collect();
        fs::write(&marker, &v3).unwrap();
        assert_eq!(listed_tree(store.path(), &tree.digest), Some(tree.clone()));
        assert!(!is_sealed(store.path(), &tree.digest, Some(&k)));
    }
}
