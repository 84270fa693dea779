//! Arguments of the project lifecycle commands.

use super::emit::{OK, emit};
use crate::error::Exit;
use crate::ops::Context;
use crate::ops::lifecycle::{self, InstallMode};

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// Skills to add. A URL, path or git spec in first position is taken as
    /// the source (`skillpm add github:owner/repo pdf`).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// A declared source name, or a URL, path or git spec (declared as a new source).
    #[arg(long, value_name = "NAME|URL|PATH")]
    pub source: Option<String>,
    /// Add every skill the source offers.
    #[arg(long)]
    pub all: bool,
    /// Branch, tag or commit for a git source.
    #[arg(long = "ref", value_name = "REF")]
    pub git_ref: Option<String>,
    /// The folder inside the source (git repository or folder of skills)
    /// that holds the skills; recorded on the new source in skills.toml.
    #[arg(long, value_name = "SUBDIR")]
    pub path: Option<String>,
    /// List what the source offers, with the folder each skill comes from;
    /// add nothing.
    #[arg(long, conflicts_with = "all")]
    pub list: bool,
    #[command(flatten)]
    pub strict: StrictArg,
    /// Approve what the summary shows without asking.
    #[arg(short, long)]
    pub yes: bool,
    #[command(flatten)]
    pub accept: AcceptArg,
    #[command(flatten)]
    pub placement: PlacementArgs,
}

/// `--accept-findings`, shared by everything that records an approval.
#[derive(Debug, clap::Args)]
pub struct AcceptArg {
    /// Accept the audit findings the summary shows for the content approved
    /// (recorded in skills.lock for that exact tree; docs/audit.md).
    #[arg(long)]
    pub accept_findings: bool,
}

/// `--strict`, shared by everything that adds skills to the lock.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct StrictArg {
    /// Refuse skills that break any Agent Skills rule `skillpm check`
    /// reports (default: refuse only what cannot be loaded, warn on the rest;
    /// `[install] strict = true` in skills.toml makes this the default).
    #[arg(long)]
    pub strict: bool,
}

/// Where and how skills are placed (recorded in skills.toml's `[install]`).
#[derive(Debug, Clone, clap::Args)]
pub struct PlacementArgs {
    /// Place skills for this agent (repeatable; ids from `skillpm agents`).
    /// Recorded as `[install] agents`.
    #[arg(long = "agent", value_name = "ID")]
    pub agents: Vec<String>,
    /// How skill folders are placed; recorded as `[install] link-mode`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub link_mode: Option<LinkModeArg>,
}

/// `--link-mode` values (`crate::agents::roots::LinkMode` without clap).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LinkModeArg {
    /// A symlink to the store entry (the default).
    Symlink,
    /// A real folder of hard links to the store's files.
    Hardlink,
    /// A real folder of reflink (copy-on-write) clones.
    Clone,
    /// A real folder of plain copies.
    Copy,
    /// A clone, else hard links, else copies, per file system.
    Auto,
}

impl PlacementArgs {
    pub fn link_mode(&self) -> Option<crate::agents::roots::LinkMode> {
        use crate::agents::roots::LinkMode;
        self.link_mode.map(|m| match m {
            LinkModeArg::Symlink => LinkMode::Symlink,
            LinkModeArg::Hardlink => LinkMode::Hardlink,
            LinkModeArg::Clone => LinkMode::Clone,
            LinkModeArg::Copy => LinkMode::Copy,
            LinkModeArg::Auto => LinkMode::Auto,
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Never write skills.lock; fail (exit 6) if it would change.
    // `--yes` stays combinable: `--locked --yes` must reach `install` to get
    // its specific exit 7 (an approval cannot be recorded without writing).
    #[arg(long, conflicts_with = "frozen")]
    pub locked: bool,
    /// --locked, and no network: everything must already be cached.
    #[arg(long)]
    pub frozen: bool,
    #[command(flatten)]
    pub strict: StrictArg,
    /// Approve unapproved lock entries without asking.
    #[arg(short, long)]
    pub yes: bool,
    #[command(flatten)]
    pub placement: PlacementArgs,
}

impl InstallArgs {
    pub fn mode(&self) -> InstallMode {
        if self.frozen {
            InstallMode::Frozen
        } else if self.locked {
            InstallMode::Locked
        } else {
            InstallMode::Normal
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct UpdateArgs {
    /// Skills to update (all when none is named).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Approve the changes shown without asking.
    #[arg(short, long)]
    pub yes: bool,
    #[command(flatten)]
    pub accept: AcceptArg,
    #[command(flatten)]
    pub strict: StrictArg,
}

#[derive(Debug, clap::Args)]
pub struct NamesArgs {
    #[arg(required = true, value_name = "NAME")]
    pub names: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct ApproveArgs {
    /// Skills to approve (every pending one when none is named).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Approve what the summary shows without asking.
    #[arg(short, long)]
    pub yes: bool,
    #[command(flatten)]
    pub accept: AcceptArg,
}

impl AddArgs {
    pub(super) fn run(self, mut ctx: Context) -> anyhow::Result<Exit> {
        ctx.link_mode = self.placement.link_mode();
        ctx.agents = self.placement.agents;
        let opts = lifecycle::AddOptions {
            source: self.source,
            names: self.names,
            all: self.all,
            yes: self.yes,
            git_ref: self.git_ref,
            path: self.path,
            strict: self.strict.strict,
            list: self.list,
            accept_findings: self.accept.accept_findings,
        };
        emit(&ctx, &lifecycle::add(&ctx, &opts)?, OK)
    }
}

impl InstallArgs {
    pub(super) fn run(self, mut ctx: Context) -> anyhow::Result<Exit> {
        ctx.link_mode = self.placement.link_mode();
        let opts = lifecycle::InstallOptions {
            mode: self.mode(),
            yes: self.yes,
            strict: self.strict.strict,
        };
        ctx.agents = self.placement.agents;
        emit(&ctx, &lifecycle::install(&ctx, &opts)?, OK)
    }
}

impl UpdateArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = lifecycle::UpdateOptions {
            names: self.names,
            yes: self.yes,
            strict: self.strict.strict,
            accept_findings: self.accept.accept_findings,
        };
        emit(ctx, &lifecycle::update(ctx, &opts)?, OK)
    }
}

impl ApproveArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = lifecycle::ApproveOptions {
            names: self.names,
            yes: self.yes,
            accept_findings: self.accept.accept_findings,
        };
        emit(ctx, &lifecycle::approve(ctx, &opts)?, OK)
    }
}
