//! `skillpm cache …` arguments and dispatch.

use std::path::PathBuf;

use clap::Subcommand;

use super::emit::{OK, emit};
use crate::error::Exit;
use crate::ops::{self, Context};
use crate::unpack::ArtifactKind;

#[derive(Debug, clap::Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub command: CacheCommand,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Print the cache folder (SKILLPM_CACHE_DIR, or the platform cache folder).
    Dir,
    /// Re-hash every stored skill and download; move any that no longer match
    /// their digest to quarantine. Exits 3 if anything was wrong.
    Verify,
    /// Remove stored skills and downloads that no project lock refers to.
    ///
    /// Kept: everything referenced by the skills.lock of every project this
    /// cache has installed for (registered on each install) that still exists,
    /// plus every --keep-lock file. With no lock known at all, gc refuses.
    Gc(GcArgs),
    /// Remove everything cached: skills, downloads, cached indexes. Keeps the
    /// rollback guard's state and the list of projects.
    Clean,
    /// Store a local .zip, .tar.gz, SKILL.md or skill folder under the same
    /// checks as an install, and print its tree digest.
    Add(CacheAddArgs),
}

#[derive(Debug, clap::Args)]
pub struct GcArgs {
    /// Also keep what this skills.lock refers to (repeatable).
    #[arg(long = "keep-lock", value_name = "FILE")]
    pub keep_locks: Vec<PathBuf>,
    /// Show what would be removed without removing anything.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, clap::Args)]
pub struct CacheAddArgs {
    /// The artifact or skill folder.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// The skill's name, which its SKILL.md must carry.
    #[arg(long)]
    pub name: String,
    /// zip, tar-gz or skill-md, when the file name and content do not tell.
    #[arg(long)]
    pub kind: Option<ArtifactKind>,
}

pub(crate) fn run(ctx: &Context, args: CacheArgs) -> anyhow::Result<Exit> {
    match args.command {
        CacheCommand::Dir => emit(ctx, &ops::cache::dir(ctx)?, OK),
        CacheCommand::Verify => {
            let report = ops::cache::verify(ctx)?;
            let exit = if report.is_clean() {
                Exit::Success
            } else {
                Exit::Integrity
            };
            emit(ctx, &report, exit)
        }
        CacheCommand::Gc(a) => {
            let opts = ops::cache::GcOptions {
                keep_locks: a.keep_locks,
                dry_run: a.dry_run,
            };
            emit(ctx, &ops::cache::gc(ctx, &opts)?, OK)
        }
        CacheCommand::Clean => emit(ctx, &ops::cache::clean(ctx)?, OK),
        CacheCommand::Add(a) => {
            let opts = ops::cache::CacheAddOptions {
                path: a.path,
                name: a.name,
                kind: a.kind,
            };
            emit(ctx, &ops::cache::add(ctx, &opts)?, OK)
        }
    }
}
