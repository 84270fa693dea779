//! `skillpm cache …`: look after the content-addressed store.

use std::path::PathBuf;

use anyhow::Context as _;

use super::Context;
use crate::error::{Exit, OpError};
use crate::ops::fail;
use crate::store::Store;
use crate::unpack::{ArtifactKind, Limits};
use crate::view::cache::{
    CacheAddReport, CacheDirReport, CacheVerifyReport, CleanReport, GcReport,
};

pub fn dir(_ctx: &Context) -> anyhow::Result<CacheDirReport> {
    Ok(CacheDirReport {
        path: crate::cache::cache_root()?,
    })
}

pub fn verify(ctx: &Context) -> anyhow::Result<CacheVerifyReport> {
    let store = Store::open()?;
    ctx.ui
        .status("Verifying", store.root().display().to_string());
    let outcome = store.verify()?;
    Ok(CacheVerifyReport {
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

pub fn clean(ctx: &Context) -> anyhow::Result<CleanReport> {
    let store = open_exclusive(ctx)?;
    let outcome = store.clean()?;
    Ok(CleanReport {
        cache: store.root().to_owned(),
        outcome,
    })
}

#[derive(Debug, Clone)]
pub struct CacheAddOptions {
    /// A .zip, .tar.gz or SKILL.md file, or a skill folder.
    pub path: PathBuf,
    /// The name the skill must carry in its frontmatter.
    pub name: String,
    /// The artifact kind, when its name and first bytes do not tell.
    pub kind: Option<ArtifactKind>,
}

pub fn add(ctx: &Context, opts: &CacheAddOptions) -> anyhow::Result<CacheAddReport> {
    if !crate::skill::is_valid_name(&opts.name) {
        return fail(
            Exit::Usage,
            format!("--name {}", crate::skill::not_a_skill_name(&opts.name)),
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
    Ok(CacheAddReport {
        name: opts.name.clone(),
        digest: entry.digest,
        created: entry.created,
        files: entry.tree.files.len(),
        bytes: entry.tree.files.iter().map(|f| f.size).sum(),
        executables: entry.tree.executables(),
        path: entry.path,
    })
}
