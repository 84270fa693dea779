//! The content-addressed store (docs/design.md#store) and the protocol that keeps it
//! whole while any number of skillpm processes share it.
//!
//! # Paths
//!
//! ```text
//! <cache>/
//!   CACHEDIR.TAG                    written once (temp + rename) by any opener
//!   .lock                           the cache lock (flock): shared, or exclusive
//!   store/sha256-<hex>/             one skill, named by its tree digest, read-only
//!   store/sha256-<hex>.complete     its completeness marker (see `seal`)
//!   store/.stage-<rand>.<n>/        an entry being unpacked, owned via …
//!   store/.stage-<rand>.lock        … this process's lock file (`crate::fs::temp`)
//!   store/.stage-trash-<rand>/      an entry being deleted (+ its .lock)
//!   downloads/sha256-<hex>          verified artifact bytes (v0.1 files only
//!                                   when spilled past a batch's memory budget:
//!                                   the rest go from memory into a staging folder)
//!   tmp/download-<rand>.<n>         a download in progress (+ its group's .lock)
//!   index/                          cached index bodies (fetch; temp + rename)
//!   git/                            the git repository cache (own locks)
//!   snapshots/sha256-<hex>          index bytes a lock was made from, and
//!   snapshots/sha256-<hex>.minisig  their signature (provenance; see below)
//!   quarantine/<name>.<time>-<rand> entries `cache verify` found corrupt
//!   state/projects.json             project lock files seen: the roots of gc
//!   state/projects.json.lock        held while that file is rewritten
//!   state/commit.lock               held while an entry or marker appears or goes
//!   state/verdicts/batch-<pid>-<rand> the audit's findings per tree, one file
//!                                   per run (`verdicts`, `unpacked::Records::batched`)
//!   state/unpacked/batch-<pid>-<rand> artifact → tree records, the same way
//!   state/…                         rollback guard, link records (their owners')
//! ```
//!
//! # Who may do what, under which lock
//!
//! | path | created by | renamed / deleted by | lock held |
//! |---|---|---|---|
//! | `store/sha256-<hex>/` | an import: staging folder renamed in | gc, clean (renamed to `.stage-trash-…`, then deleted); verify (moved to `quarantine/`) | creation and quarantine: `.lock` shared + `commit.lock`; gc/clean: `.lock` exclusive |
//! | `store/sha256-<hex>.complete` | the process that added or re-hashed the entry (stamped with the boot id, or after one `syncfs`) | gc/clean; quarantine; verify (orphans) | `commit.lock` (gc/clean: exclusive) |
//! | `store/.stage-*`, `tmp/download-*` | their owner, after taking `X.lock` (for a group item `X.<n>`: its process's `X.lock`, taken once) | their owner; a sweeper holding `X.lock` | `.lock` shared + `X.lock` |
//! | `downloads/sha256-<hex>` | a fetch: `tmp/download-*` renamed in after its hash matched | gc, clean; verify (when its bytes no longer match) | `.lock` shared (creation, verify), exclusive (gc, clean) |
//! | `snapshots/sha256-<hex>[.minisig]` | provenance: temp + rename with `crate::fs`, once, never modified | gc (when no registered lock refers to it: [`Store::gc`]'s hook); clean | `.lock` shared / exclusive |
//! | `quarantine/*` | verify | gc, clean | `.lock` shared / exclusive |
//! | `state/projects.json` | every install (registration) | gc (forgetting projects that are gone) | `projects.json.lock` |
//!
//! gc and clean leave every other top-level folder alone: a folder they do
//! not know belongs to a newer skillpm.
//!
//! # Why it is race-free
//!
//! - **An entry appears only complete.** It is unpacked and checked in a
//!   staging folder beside its final place, sealed read-only, then renamed
//!   into place under `commit.lock`, re-checking after taking it: of two
//!   processes storing the same skill exactly one renames, the other drops
//!   its copy.
//! - **gc never removes what a running install is about to link.** Every
//!   process that reads or writes the cache holds `.lock` *shared* for its
//!   whole run (an install: from resolving to writing skills.lock); gc and
//!   clean take it *exclusive*, so they run only between installs, and by
//!   then every install's skills.lock is registered as a root.
//! - **A sweeper tells a dead writer from a live one without guessing.**
//!   Temporary items are owned through a lock file taken before the item's
//!   name exists (`crate::fs::temp`): a sweeper removes an item only while
//!   holding its lock itself, which the kernel grants only once the owner is
//!   dead (or before the owner created the item, which it then notices).
//!   Items without a lock file (from a program that does not follow this
//!   protocol) are removed only after a grace period, as git's
//!   `gc.pruneExpire` does. Every opener sweeps `store/.stage-*` and `tmp/`.
//!   A process owns all its staging folders through one lock file, and all
//!   its downloads through another (`.stage-<rand>.lock` owns every
//!   `.stage-<rand>.<n>`; `crate::fs::temp`, rule 4): the sweeper removes
//!   the whole group once that lock is dead, never one item of a live group.
//!   A lock file per skill was an inode made and deleted per skill, which on
//!   ext4 slows every later inode allocation (docs/performance.md#what-the-measurements-decided).
//! - **Durability without waiting for the disk.** Entries and downloads are
//!   written without flushing. Each entry's completeness marker is written
//!   before any link or skills.lock refers to it: on Linux as the entry is
//!   committed (on the committing thread, under the commit lock), elsewhere
//!   once an install's entries are in place ([`Store::seal_pending`]). On
//!   Linux a marker names the boot it was written in
//!   (`/proc/sys/kernel/random/boot_id`) and nothing is flushed: a killed
//!   process loses nothing of the page cache, and after a power loss or
//!   kernel crash the boot id is new, so every marker of the
//!   earlier boot is disbelieved and its entry re-hashed before use. Where the
//!   boot has no name, one `syncfs` (or fsyncs) precedes the markers, which
//!   then hold in every boot. Before an entry is linked its marker is checked
//!   against `stat` (cheap: sizes, mtimes, ctimes, inodes) and its MAC by
//!   the user's record key; an entry without a valid marker (a crash, an
//!   edit through a link, even one that kept sizes and mtimes) is re-hashed
//!   and re-sealed or quarantined. A cached
//!   download is re-hashed before it is reused, and so is a store entry's
//!   file that a 304 confirms for a v0.1 file (the entry is first checked
//!   whole, [`Store::reuse_unpacked`], then the file hashed against the
//!   digest its validators record). `cache verify` re-hashes everything.
//! - **Killed at any instant** (SIGKILL), a process leaves the store before
//!   or after: staging folders or downloads whose group lock is dead (the
//!   kernel released it; the next opener sweeps the whole group), or an
//!   entry without its marker (re-hashed before use). Its page-cache writes
//!   survive, so a marker it did write (this boot's id) stays true.
//! - **Power loss or kernel crash**: the next boot has a new id, so every
//!   marker of the earlier boot is disbelieved and its entry re-hashed (a
//!   torn one quarantined) before any link or reuse; a lost rename leaves a
//!   staging folder with a lock file nobody holds (swept), a lost record
//!   (`state/unpacked`, `state/trees`) reads as absent (the artifact is
//!   unpacked again), a torn download is re-hashed before reuse.
//! - **File lists.** A marker also lists its entry's files with their
//!   digests (`seal`, version 3), which replaces a record per stored tree
//!   in `state/trees/`. The list is read back only when it hashes to the
//!   entry's name. When an entry leaves the store its list is first copied
//!   to `state/trees/` (`trees`), so a diff against a removed approved
//!   version still works.
//! - **A warm cache reuses what is whole.** `add` of an artifact the store
//!   already unpacked (per the user's authenticated artifact → tree record)
//!   neither downloads nor unpacks it, but only after the entry's marker
//!   holds or it hashes right again ([`Store::reuse_unpacked`]); placement
//!   still hashes every entry this process did not hash itself or find
//!   sealed ([`Store::verify_placeable`]).

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::cache::{self, NoCacheDir, layout};
use crate::digest::{Digest, HashedTree};
use crate::error::{Classify, Exit};
use crate::unpack::{self, ArtifactKind, FileList, Limits, UnpackError};

mod maintenance;
mod markers;
mod projects;
/// Index snapshots and unpack records: the cache side of provenance.
pub mod snapshots;
mod trees;
pub mod unpacked;
mod verdicts;

pub use crate::fs::TempFile;
pub use maintenance::{CleanOutcome, EntryCheck, GcOutcome, SetCheckAhead, VerifyOutcome};
pub use unpacked::flush_batches;
pub use verdicts::{
    Verdict, remember_in as remember_verdict_in, remembered_in as remembered_verdict_in,
};

use crate::fs::HeldLock;
use crate::fs::temp::{self, LazyGroup, Reserved, TempDir};
use crate::fs::tree::{remove_tree, seal_dirs};

/// Name prefix of staging folders inside `store/` (beside their destination:
/// renaming within one parent needs no write permission on the folder itself).
pub(crate) const STAGE_PREFIX: &str = ".stage-";
/// Name prefix of temporary files in `tmp/`.
const DOWNLOAD_PREFIX: &str = "download-";

/// Where `cache verify` moves entries whose content no longer matches their name.
pub const QUARANTINE: &str = "quarantine";
const CACHEDIR_TAG: &str = "CACHEDIR.TAG";
/// In `state/`: serialises entries appearing and disappearing.
const COMMIT_LOCK: &str = "commit.lock";
const CACHEDIR_TAG_BODY: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by skillpm.\n\
# For information about cache directory tags, see https://bford.info/cachedir/\n";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    NoCacheDir(#[from] NoCacheDir),
    #[error(transparent)]
    Unpack(#[from] UnpackError),
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    #[error("cannot read project lock {}: {message}", path.display())]
    BadProjectLock { path: PathBuf, message: String },
    #[error(
        "no project lock is known, so every entry would look unused: run `cache gc` with \
         `--keep-lock path/to/skills.lock` (repeatable), or install a project first so its lock \
         is registered; `cache clean` removes everything on purpose"
    )]
    NoGcRoots,
    #[error("internal error: {0} needs the exclusive cache lock")]
    NotExclusive(&'static str),
}

crate::classified!(StoreError);
impl Classify for StoreError {
    fn exit(&self) -> Exit {
        match self {
            StoreError::NoCacheDir(e) => e.exit(),
            StoreError::Unpack(e) => e.exit(),
            StoreError::NoGcRoots => Exit::Usage,
            StoreError::Io { .. }
            | StoreError::BadProjectLock { .. }
            | StoreError::NotExclusive(_) => Exit::Other,
        }
    }
}

fn io_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> StoreError {
    let path = path.to_owned();
    move |source| StoreError::Io {
        action,
        path,
        source,
    }
}

/// A skill in the store.
#[derive(Debug, Clone)]
pub struct StoreEntry {
    pub digest: Digest,
    /// `<cache>/store/sha256-<hex>`: what links point at.
    pub path: PathBuf,
    /// Every file with size, digest and executable bit, as stored.
    pub tree: HashedTree,
    /// False when the entry already existed (this import's copy was discarded).
    pub created: bool,
}

/// An open cache. Holding it holds the cache lock: shared for normal work,
/// exclusive for `gc` and `clean`. Every process that touches the cache must
/// hold one for as long as it uses anything inside.
#[derive(Debug)]
pub struct Store {
    root: PathBuf,
    exclusive: bool,
    debris_removed: usize,
    /// Entries this process added or re-hashed whose marker is not written
    /// yet: sealed by [`Store::seal_pending`] (or on drop).
    pending: std::sync::Mutex<Vec<Unsealed>>,
    /// Entries this process hashed itself (imported, or re-hashed before a
    /// placement): [`Store::verify_hashed`] need not read them again.
    hashed: std::sync::Mutex<std::collections::HashSet<Digest>>,
    /// Entries whose marker this process found to hold ([`Store::verify_entry`]):
    /// [`Store::verify_placeable`] need not hash them.
    sealed: std::sync::Mutex<std::collections::HashSet<Digest>>,
    /// Entries this process created (see [`Store::discard_created`]).
    created: std::sync::Mutex<Vec<Digest>>,
    /// The audit's findings for each tree this process judged or read the
    /// verdict of ([`Store::verdict`]): asked again (the approval summary,
    /// then the placement gate), the answer needs no second record read.
    judged: std::sync::Mutex<std::collections::HashMap<Digest, Vec<crate::audit::Finding>>>,
    /// The bytes of entries this process created, as written, until they
    /// are judged ([`Store::verdict`] reads them instead of the entry).
    written: std::sync::Mutex<verdicts::Unjudged>,
    /// This process's staging folders and temporary files, each group
    /// owned through one lock file made on first use (`crate::fs::temp`,
    /// rule 4): no lock file per skill.
    stages: LazyGroup,
    temps: LazyGroup,
    _lock: fs::File,
}

/// An entry waiting for its marker, with the file made for that marker
/// beside the entry's own files when it was staged ([`seed_marker`]).
#[derive(Debug)]
struct Unsealed {
    tree: HashedTree,
    seed: Option<Reserved>,
}

impl Drop for Store {
    fn drop(&mut self) {
        // Best effort: an entry left unsealed is re-hashed before its next use.
        let _ = self.seal_pending();
        // This run's verdicts and artifact → tree records, one file per
        // folder (`unpacked::Records::batched`); lost ones are work redone.
        unpacked::flush_batches();
    }
}

impl Store {
    /// Opens the user's cache (`SKILLPM_CACHE_DIR` or the platform cache dir)
    /// with the shared lock.
    pub fn open() -> Result<Store, StoreError> {
        Self::open_at(cache::cache_root()?)
    }

    /// Opens the user's cache with the exclusive lock, waiting for every other
    /// skillpm process to finish (`on_wait` runs before waiting). Never call
    /// it while this process holds another `Store`: it would wait for itself.
    pub fn open_exclusive(on_wait: impl FnOnce()) -> Result<Store, StoreError> {
        Self::open_exclusive_at(cache::cache_root()?, on_wait)
    }

    pub fn open_at(root: impl Into<PathBuf>) -> Result<Store, StoreError> {
        Self::open_with(root.into(), false, || {})
    }

    /// Opens with the exclusive lock; `on_wait` runs first if other skillpm
    /// processes hold the cache (so the caller can say why it pauses).
    pub fn open_exclusive_at(
        root: impl Into<PathBuf>,
        on_wait: impl FnOnce(),
    ) -> Result<Store, StoreError> {
        Self::open_with(root.into(), true, on_wait)
    }

    fn open_with(
        root: PathBuf,
        exclusive: bool,
        on_wait: impl FnOnce(),
    ) -> Result<Store, StoreError> {
        // The cache's folders, and then each store entry (a staging folder
        // renamed in place), start away from the inodes the last cleanup
        // freed (`crate::fs::spread`): the markers and downloads written
        // directly in `store/` and `tmp/` with them. `downloads/` and `tmp/`
        // are made when first written (a folder source needs no
        // `downloads/`; each such folder cost a cold add 0.15-0.25 ms,
        // docs/performance.md#what-the-measurements-decided).
        fs::create_dir_all(&root).map_err(io_error("create the cache folder", &root))?;
        crate::fs::spread::spread_subfolders(&root);
        for sub in [layout::STORE, layout::STATE] {
            let dir = root.join(sub);
            fs::create_dir_all(&dir).map_err(io_error("create the cache folder", &dir))?;
        }
        crate::fs::spread::spread_subfolders(&root.join(layout::STORE));
        write_cachedir_tag(&root)?;
        let lock_path = root.join(layout::LOCK_FILE);
        let lock = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(io_error("open the cache lock", &lock_path))?;
        let attempt = if exclusive {
            lock.try_lock()
        } else {
            lock.try_lock_shared()
        };
        match attempt {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                on_wait();
                if exclusive {
                    lock.lock()
                } else {
                    lock.lock_shared()
                }
                .map_err(io_error("lock", &lock_path))?;
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_error("lock", &lock_path)(e)),
        }
        let stages = LazyGroup::new(root.join(layout::STORE), STAGE_PREFIX);
        let temps = LazyGroup::new(root.join(layout::TMP), DOWNLOAD_PREFIX);
        let mut store = Store {
            root,
            exclusive,
            debris_removed: 0,
            pending: std::sync::Mutex::new(Vec::new()),
            hashed: std::sync::Mutex::new(std::collections::HashSet::new()),
            sealed: std::sync::Mutex::new(std::collections::HashSet::new()),
            judged: std::sync::Mutex::new(std::collections::HashMap::new()),
            written: std::sync::Mutex::new(verdicts::Unjudged::default()),
            created: std::sync::Mutex::new(Vec::new()),
            stages,
            temps,
            _lock: lock,
        };
        store.debris_removed = store.clean_debris()?;
        Ok(store)
    }

    /// Removes what killed processes left behind (only what no live process
    /// holds a lock on). Runs on every open.
    fn clean_debris(&self) -> Result<usize, StoreError> {
        let store = self.store_dir();
        let tmp = self.tmp_dir();
        let removed = temp::sweep(&store, Some(STAGE_PREFIX))
            .map_err(io_error("clean up unfinished work in", &store))?
            + temp::sweep(&tmp, None).map_err(io_error("clean up unfinished work in", &tmp))?;
        Ok(removed)
    }

    /// How many leftovers of interrupted runs opening the store removed.
    pub fn debris_removed(&self) -> usize {
        self.debris_removed
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The user's record key, which MACs the completeness markers (`seal`);
    /// read on first use, so a run that seals and checks nothing makes none.
    fn key(&self) -> Option<&'static crate::trust::RecordKey> {
        crate::trust::RecordKey::user()
    }

    pub fn is_exclusive(&self) -> bool {
        self.exclusive
    }

    pub fn store_dir(&self) -> PathBuf {
        self.root.join(layout::STORE)
    }

    pub fn entry_path(&self, digest: &Digest) -> PathBuf {
        self.store_dir().join(digest.file_name())
    }

    pub fn has_entry(&self, digest: &Digest) -> bool {
        self.entry_path(digest).is_dir()
    }

    pub fn downloads_dir(&self) -> PathBuf {
        self.root.join(layout::DOWNLOADS)
    }

    /// `downloads/sha256-<hex>`: an artifact's verified bytes.
    pub fn download_path(&self, digest: &Digest) -> PathBuf {
        self.downloads_dir().join(digest.file_name())
    }

    /// `<cache>/tmp`: temporary files on the cache's file system (renames
    /// from here are atomic). Prefer [`Store::temp_file`], which is cleaned
    /// up even when the process is killed.
    pub fn tmp_dir(&self) -> PathBuf {
        self.root.join(layout::TMP)
    }

    pub fn state_dir(&self) -> PathBuf {
        self.root.join(layout::STATE)
    }

    pub fn quarantine_dir(&self) -> PathBuf {
        self.root.join(QUARANTINE)
    }

    /// Every entry's digest, sorted.
    pub fn entries(&self) -> Result<Vec<Digest>, StoreError> {
        let dir = self.store_dir();
        let mut out = Vec::new();
        for item in fs::read_dir(&dir).map_err(io_error("list", &dir))? {
            let item = item.map_err(io_error("list", &dir))?;
            if let Some(digest) = item.file_name().to_str().and_then(Digest::from_file_name) {
                out.push(digest);
            }
        }
        out.sort();
        Ok(out)
    }

    /// A temporary file in `tmp/`, removed unless persisted.
    pub fn temp_file(&self) -> Result<TempFile, StoreError> {
        let dir = self.tmp_dir();
        self.temps
            .get()
            .and_then(|group| group.temp_file())
            .map_err(io_error("create a temporary file in", &dir))
    }

    /// Unpacks an artifact (already verified against its digest) into the
    /// store under the rules of docs/design.md#unpacking.
    pub fn import_artifact(
        &self,
        kind: ArtifactKind,
        artifact: &Path,
        label: &str,
        expected_name: &str,
        limits: &Limits,
    ) -> Result<StoreEntry, StoreError> {
        let staging = self.staging()?;
        let unpacked =
            unpack::unpack_artifact(kind, artifact, label, expected_name, staging.path(), limits)?;
        self.commit(staging, unpacked)
    }

    /// Copies a local skill folder (path or git source) into the store.
    pub fn import_dir(
        &self,
        source: &Path,
        label: &str,
        expected_name: &str,
        limits: &Limits,
    ) -> Result<StoreEntry, StoreError> {
        let staging = self.staging()?;
        let unpacked = unpack::unpack_dir(source, label, expected_name, staging.path(), limits)?;
        self.commit(staging, unpacked)
    }

    /// Stores a v0.1.0 skill from `(name, reader)` pairs, streamed.
    pub fn import_file_list<R: Read>(
        &self,
        label: &str,
        expected_name: &str,
        limits: &Limits,
        files: impl IntoIterator<Item = (String, R)>,
    ) -> Result<StoreEntry, StoreError> {
        let mut import = self.begin_file_list(label, limits)?;
        for (name, reader) in files {
            import.list().add_file(&name, reader)?;
        }
        import.commit(expected_name)
    }

    /// Starts a v0.1.0 skill whose files arrive one by one (e.g. from async
    /// downloads); dropping the import without `commit` leaves no trace.
    pub fn begin_file_list(
        &self,
        label: &str,
        limits: &Limits,
    ) -> Result<FileListImport<'_>, StoreError> {
        let staging = self.staging()?;
        let list = FileList::new(staging.path(), label, limits);
        Ok(FileListImport {
            store: self,
            list,
            staging,
        })
    }

    fn staging(&self) -> Result<TempDir, StoreError> {
        let dir = self.store_dir();
        self.stages
            .get()
            .and_then(|group| group.temp_dir())
            .map_err(io_error("create a staging folder in", &dir))
    }

    /// Renames a checked staging folder into place, or discards it when the
    /// entry already exists: check and rename happen under the commit lock,
    /// so of two processes storing the same skill exactly one creates it.
    fn commit(
        &self,
        staging: TempDir,
        (mut tree, written): (HashedTree, Option<unpack::FilesAsWritten>),
    ) -> Result<StoreEntry, StoreError> {
        let digest = tree.digest;
        let dest = self.entry_path(&digest);
        let seed = if dest.is_dir() {
            None
        } else {
            self.stages
                .get()
                .ok()
                .and_then(|group| seed_marker(staging.path(), group.reserve()))
        };
        let lock = self.lock_commits()?;
        let created = if dest.is_dir() {
            false
        } else {
            make_read_only(staging.path(), &tree)
                .map_err(io_error("make read-only", staging.path()))?;
            match fs::rename(staging.path(), &dest) {
                Ok(()) => true,
                // Someone committed without the lock (an older skillpm): theirs stands.
                Err(_) if dest.is_dir() => false,
                Err(e) => return Err(io_error("move the staged skill to", &dest)(e)),
            }
        };
        let sealed_now = created && self.seal_now(&tree, seed.as_ref());
        drop(lock);
        if created {
            // New content is judged before it is placed: the audit's
            // first-use cost starts now, if nothing started it yet, and
            // with it what the first new skill's own text needs.
            crate::audit::warm_up();
            if let Ok(mut c) = self.created.lock() {
                c.push(digest);
            }
            self.mark_hashed(digest);
            if let Some(files) = written {
                crate::audit::warm_up_for(&files);
                self.keep_written(digest, files);
            }
            if !sealed_now {
                self.add_pending(tree.clone(), seed);
            }
            staging.keep();
        } else {
            drop(staging);
            refresh_executables(&mut tree, &dest);
        }
        Ok(StoreEntry {
            digest,
            path: dest,
            tree,
            created,
        })
    }

    /// Writes the marker of an entry just committed, where the boot has a
    /// name: "complete in this boot" needs no flush first (see `seal`), so
    /// it is written on the committing thread, under the commit lock that
    /// keeps gc and verify away, and a large add has no marker pass left to
    /// wait for at its end. `false`: left for [`Store::seal_pending`].
    fn seal_now(&self, tree: &HashedTree, seed: Option<&Reserved>) -> bool {
        crate::fs::durable::boot_epoch().is_some_and(|boot| {
            let seed = seed.map(Reserved::path);
            markers::write_marker(&self.store_dir(), tree, boot, self.key(), seed).is_ok()
        })
    }

    fn add_pending(&self, tree: HashedTree, seed: Option<Reserved>) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.push(Unsealed { tree, seed });
        }
    }

    /// Makes every entry this process re-checked, or added where the boot
    /// has no name, durable with one flush of the cache's file system, then
    /// writes their completeness markers (see [`seal`]). Call once the entries of an install are in
    /// place, before anything that refers to them (links, skills.lock) is
    /// written. Returns how many entries were sealed.
    pub fn seal_pending(&self) -> Result<usize, StoreError> {
        let trees = match self.pending.lock() {
            Ok(mut pending) => std::mem::take(&mut *pending),
            Err(_) => return Ok(0),
        };
        if trees.is_empty() {
            return Ok(0);
        }
        let dir = self.store_dir();
        // Where the boot has a name, the marker says "complete in this boot"
        // and nothing is flushed (see `seal`); elsewhere one flush first.
        let epoch = match crate::fs::durable::boot_epoch() {
            Some(boot) => boot,
            None => {
                let mut batch = crate::fs::durable::Batch::new();
                batch.add(&dir);
                batch.flush().map_err(io_error("flush", &dir))?;
                markers::FLUSHED
            }
        };
        let _lock = self.lock_commits()?;
        // One thread: markers are files of one folder, and threads creating
        // files in one folder only queue on its lock (perf showed them
        // spinning there, docs/performance.md#what-the-measurements-decided).
        let mut sealed = 0;
        for Unsealed { tree, seed } in trees {
            // An entry gc or verify removed meanwhile has nothing to seal.
            // A seed still there (not renamed into place) goes on drop.
            if self.entry_path(&tree.digest).is_dir() {
                let seeded = seed.as_ref().map(Reserved::path);
                markers::write_marker(&dir, &tree, epoch, self.key(), seeded)
                    .map_err(io_error("write the marker of", &dir))?;
                sealed += 1;
            }
        }
        Ok(sealed)
    }

    /// Removes the entries this process created that `keep` does not want
    /// (an `add` declined or failed: what it fetched leaves no store entry,
    /// so no later lock edit can point at it as if it had been vetted).
    /// Returns how many went. Known limit: another process that found the
    /// same entry already in place while this one ran may be left with a
    /// link to nothing (a copy fails; a symlink dangles) until its next
    /// `install` makes the entry again.
    pub fn discard_created(&self, keep: impl Fn(&Digest) -> bool) -> Result<usize, StoreError> {
        let created = match self.created.lock() {
            Ok(mut c) => std::mem::take(&mut *c),
            Err(_) => return Ok(0),
        };
        let gone: Vec<Digest> = created.into_iter().filter(|d| !keep(d)).collect();
        if gone.is_empty() {
            return Ok(0);
        }
        if let Ok(mut pending) = self.pending.lock() {
            pending.retain(|t| !gone.contains(&t.tree.digest));
        }
        let _lock = self.lock_commits()?;
        let mut removed = 0;
        for digest in &gone {
            let path = self.entry_path(digest);
            if path.is_dir() {
                self.discard_entry(&path)?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The file list of the tree `digest`: from its entry's marker while it
    /// is in the store, else from the record kept when it left
    /// ([`trees`]); believed only when it hashes to `digest`.
    pub fn remembered_tree(&self, digest: &Digest) -> Option<HashedTree> {
        markers::listed_tree(&self.store_dir(), digest)
            .or_else(|| trees::load(&self.state_dir(), digest))
    }

    /// Removes an entry's marker (gone is fine), first keeping the file
    /// list it carries in `state/trees/` (best effort: a list not kept only
    /// costs a later diff). Call under the commit lock.
    pub(crate) fn drop_marker(&self, digest: &Digest) -> io::Result<()> {
        let dir = self.store_dir();
        if let Some(tree) = markers::listed_tree(&dir, digest) {
            let _ = trees::save(&self.state_dir(), &tree);
        }
        markers::remove_marker(&dir, digest)
    }

    /// The lock under which entries appear and disappear (commit, quarantine).
    /// One lock for all entries rather than a file per digest: it is held
    /// only for a check and a rename, and a lock file per import would cost
    /// an inode allocation each, which dominated small-skill imports.
    pub(crate) fn lock_commits(&self) -> Result<HeldLock, StoreError> {
        let path = self.state_dir().join(COMMIT_LOCK);
        HeldLock::acquire(&path).map_err(io_error("lock", &path))
    }

    /// Removes a store entry without ever exposing a half-deleted one: it is
    /// first renamed to a staging name this process owns (debris the next
    /// sweep removes, should this process die), then deleted.
    pub(crate) fn discard_entry(&self, path: &Path) -> Result<(), StoreError> {
        let dir = self.store_dir();
        if let Some(digest) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(Digest::from_file_name)
        {
            self.drop_marker(&digest)
                .map_err(io_error("remove the marker in", &dir))?;
        }
        let trash = Reserved::new(&dir, &format!("{STAGE_PREFIX}trash-"))
            .map_err(io_error("create a staging name in", &dir))?;
        fs::rename(path, trash.path()).map_err(io_error("remove", path))?;
        let result = remove_tree(trash.path()).map_err(io_error("remove", trash.path()));
        drop(trash);
        result
    }
}

/// A v0.1.0 skill being assembled in the store's staging area.
pub struct FileListImport<'s> {
    store: &'s Store,
    list: FileList,
    staging: TempDir,
}

impl FileListImport<'_> {
    /// Where files are added: `add_file(name, reader)` or `begin_file(name)`.
    pub fn list(&mut self) -> &mut FileList {
        &mut self.list
    }

    /// Checks the skill and moves it into the store.
    pub fn commit(self, expected_name: &str) -> Result<StoreEntry, StoreError> {
        let tree = self.list.finish(expected_name)?;
        self.store.commit(self.staging, tree)
    }
}

/// Name of the file made in a staging folder to become its entry's marker.
/// A skill holding a file of that name only loses the seed.
const MARKER_SEED: &str = ".skillpm-marker-seed";

/// Makes the file that will hold an entry's marker inside the entry's
/// staging folder, then moves it out to `reserved` (an item of this
/// process's staging group, so a sweep removes it should the process die).
/// ext4 puts a new file's inode in its parent folder's block group: the
/// staging folder's group was just chosen for it (`crate::fs::spread`), while
/// `store/` holds every marker and the recently freed inodes of earlier
/// ones, which ext4 scans past for each file created there (a quarter of a
/// cold `add` of 500 from a folder, docs/performance.md#what-the-measurements-decided).
/// Best effort: `None` has the marker created in place.
fn seed_marker(staging: &Path, reserved: Reserved) -> Option<Reserved> {
    let inside = staging.join(MARKER_SEED);
    crate::fs::create_new(&inside, 0o644).ok()?;
    match fs::rename(&inside, reserved.path()) {
        Ok(()) => Some(reserved),
        Err(_) => {
            let _ = fs::remove_file(&inside);
            None
        }
    }
}

/// Makes a staged tree read-only: folders 0555, deepest first, the root
/// last (on Unix the files were created read-only by the unpacker). The
/// folders are known from the tree ([`markers::folders`]), so no directory
/// listing is needed.
fn make_read_only(root: &Path, tree: &HashedTree) -> io::Result<()> {
    #[cfg(not(unix))]
    for file in &tree.files {
        let path = root.join(&file.path);
        let mut perms = fs::metadata(&path)?.permissions();
        perms.set_readonly(true);
        fs::set_permissions(&path, perms)?;
    }
    seal_dirs(root, markers::folders(tree))
}

/// The executable bits of an existing entry (which may differ from a copy
/// discarded for it: bits are not part of the digest).
pub(crate) fn refresh_executables(tree: &mut HashedTree, entry: &Path) {
    for file in &mut tree.files {
        if let Ok(meta) = fs::metadata(entry.join(&file.path)) {
            file.executable = crate::digest::is_executable(&meta);
        }
    }
}

fn write_cachedir_tag(root: &Path) -> Result<(), StoreError> {
    let tag = root.join(CACHEDIR_TAG);
    if tag.exists() {
        return Ok(());
    }
    // Written under a unique name and renamed, so a reader never sees half.
    crate::fs::write_replacing(&tag, CACHEDIR_TAG_BODY.as_bytes()).map_err(io_error("write", &tag))
}
