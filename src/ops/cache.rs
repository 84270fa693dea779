//! `skillpm cache …`: look after the content-addressed store.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;
use serde::Serialize;

use super::{Context, Report};
use crate::digest::Digest;
use crate::error::{Exit, OpError};
use crate::ops::fail;
use crate::store::{CleanOutcome, GcOutcome, Store, VerifyOutcome};
use crate::unpack::{ArtifactKind, Limits, Size};

/// `cache dir` JSON: `{"path": "/home/u/.cache/skillpm"}`.
#[derive(Debug, Serialize)]
pub struct CacheDirReport {
    pub path: PathBuf,
}

impl Report for CacheDirReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.path.display())
    }
}

pub fn dir(_ctx: &Context) -> anyhow::Result<CacheDirReport> {
    Ok(CacheDirReport {
        path: crate::cache::cache_root()?,
    })
}

/// `cache verify` JSON: `{"cache": path, "entries_checked": n, "downloads_checked": n,
/// "debris_removed": n, "problems": [{"item": "store/sha256-…", "problem": "…",
/// "moved_to": path|null}]}`. Exit 3 when `problems` is not empty.
#[derive(Debug, Serialize)]
pub struct VerifyReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: VerifyOutcome,
}

impl VerifyReport {
    pub fn is_clean(&self) -> bool {
        self.outcome.problems.is_empty()
    }
}

impl Report for VerifyReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let o = &self.outcome;
        for p in &o.problems {
            match &p.moved_to {
                Some(to) => writeln!(out, "{}: {} (moved to {})", p.item, p.problem, to.display())?,
                None => writeln!(out, "{}: {}", p.item, p.problem)?,
            }
        }
        if o.debris_removed > 0 {
            writeln!(
                out,
                "removed {} leftover(s) of interrupted runs",
                o.debris_removed
            )?;
        }
        let verdict = if self.is_clean() {
            "all intact".to_owned()
        } else {
            format!("{} problem(s) found", o.problems.len())
        };
        writeln!(
            out,
            "checked {} entries and {} downloads: {verdict}",
            o.entries_checked, o.downloads_checked
        )
    }
}

pub fn verify(ctx: &Context) -> anyhow::Result<VerifyReport> {
    let store = Store::open()?;
    ctx.ui
        .status("Verifying", store.root().display().to_string());
    let outcome = store.verify()?;
    Ok(VerifyReport {
        cache: store.root().to_owned(),
        outcome,
    })
}

#[derive(Debug, Clone, Default)]
pub struct GcOptions {
    /// Extra project locks whose skills to keep (besides registered ones).
    pub keep_locks: Vec<PathBuf>,
    /// Report what would be removed, remove nothing.
    pub dry_run: bool,
}

/// `cache gc` JSON: `{"cache": path, "dry_run": bool, "lock_files": [path], "forgotten": [path],
/// "kept_entries": n, "removed_entries": ["sha256:…"], "removed_downloads": ["sha256:…"],
/// "removed_other": [path], "bytes_freed": n}`.
#[derive(Debug, Serialize)]
pub struct GcReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: GcOutcome,
}

impl Report for GcReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let o = &self.outcome;
        let verb = if o.dry_run { "would remove" } else { "removed" };
        for d in &o.removed_entries {
            writeln!(out, "{verb} store entry {d}")?;
        }
        for d in &o.removed_downloads {
            writeln!(out, "{verb} download {d}")?;
        }
        for p in &o.removed_other {
            writeln!(out, "{verb} {}", p.display())?;
        }
        for p in &o.forgotten {
            writeln!(
                out,
                "forgot project lock {} (file no longer exists)",
                p.display()
            )?;
        }
        writeln!(
            out,
            "kept {} entries used by {} project lock(s); {verb} {} entries and {} downloads, {} freed",
            o.kept_entries,
            o.lock_files.len(),
            o.removed_entries.len(),
            o.removed_downloads.len(),
            Size(o.bytes_freed)
        )
    }
}

pub fn gc(ctx: &Context, opts: &GcOptions) -> anyhow::Result<GcReport> {
    let keep: Vec<PathBuf> = opts.keep_locks.iter().map(|p| ctx.cwd.join(p)).collect();
    if let Some(lock) = keep.iter().find(|lock| !lock.is_file()) {
        return fail(
            Exit::Usage,
            format!(
                "--keep-lock {}: no such file (give the path of a skills.lock)",
                lock.display()
            ),
        );
    }
    let store = open_exclusive(ctx)?;
    let outcome = store.gc(&keep, opts.dry_run)?;
    Ok(GcReport {
        cache: store.root().to_owned(),
        outcome,
    })
}

/// The store, once no other skillpm process uses it (saying so while waiting).
fn open_exclusive(ctx: &Context) -> anyhow::Result<Store> {
    Ok(Store::open_exclusive(|| {
        ctx.ui.status(
            "Waiting",
            "for other skillpm processes to release the cache",
        );
    })?)
}

/// `cache clean` JSON: `{"cache": path, "removed": [path], "bytes_freed": n}`.
#[derive(Debug, Serialize)]
pub struct CleanReport {
    pub cache: PathBuf,
    #[serde(flatten)]
    pub outcome: CleanOutcome,
}

impl Report for CleanReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "removed {} item(s) from {}, {} freed",
            self.outcome.removed.len(),
            self.cache.display(),
            Size(self.outcome.bytes_freed)
        )
    }
}

pub fn clean(ctx: &Context) -> anyhow::Result<CleanReport> {
    let store = open_exclusive(ctx)?;
    let outcome = store.clean()?;
    Ok(CleanReport {
        cache: store.root().to_owned(),
        outcome,
    })
}

#[derive(Debug, Clone)]
pub struct AddOptions {
    /// A .zip, .tar.gz or SKILL.md file, or a skill folder.
    pub path: PathBuf,
    /// The name the skill must carry in its frontmatter.
    pub name: String,
    /// The artifact kind, when its name and first bytes do not tell.
    pub kind: Option<ArtifactKind>,
}

/// `cache add` JSON: `{"name": "pdf-tools", "digest": "sha256:…", "path": path,
/// "created": bool, "files": n, "bytes": n, "executables": ["scripts/run.sh"]}`.
#[derive(Debug, Serialize)]
pub struct AddReport {
    pub name: String,
    pub digest: Digest,
    pub path: PathBuf,
    /// False when the store already held this exact content.
    pub created: bool,
    pub files: usize,
    pub bytes: u64,
    pub executables: Vec<String>,
}

impl Report for AddReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.digest)
    }
}

pub fn add(ctx: &Context, opts: &AddOptions) -> anyhow::Result<AddReport> {
    if !crate::skill::is_valid_name(&opts.name) {
        return fail(
            Exit::Usage,
            format!(
                "--name `{}` is not a skill name: 1-64 lowercase letters, digits and single hyphens",
                opts.name
            ),
        );
    }
    let path = ctx.cwd.join(&opts.path);
    let label = opts.path.display().to_string();
    let meta = std::fs::metadata(&path).with_context(|| format!("cannot read {label}"))?;
    let store = Store::open()?;
    let entry = if meta.is_dir() {
        store.import_dir(&path, &label, &opts.name, &Limits::default())?
    } else {
        let kind = match opts.kind {
            Some(kind) => kind,
            None => ArtifactKind::guess_file(&path)
                .with_context(|| format!("cannot read {label}"))?
                .ok_or_else(|| {
                    OpError::new(
                        Exit::Usage,
                        format!(
                            "cannot tell what kind of artifact {label} is: name it .zip, .tar.gz or .md, or pass --kind"
                        ),
                    )
                })?,
        };
        store.import_artifact(kind, &path, &label, &opts.name, &Limits::default())?
    };
    ctx.ui.status(
        if entry.created { "Stored" } else { "Present" },
        format!("{} as {}", opts.name, entry.path.display()),
    );
    Ok(AddReport {
        name: opts.name.clone(),
        digest: entry.digest,
        created: entry.created,
        files: entry.tree.files.len(),
        bytes: entry.tree.files.iter().map(|f| f.size).sum(),
        executables: entry.tree.executables(),
        path: entry.path,
    })
}
