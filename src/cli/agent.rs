//! Arguments of the commands that serve skills to agents: `mcp`,
//! `mentions` and `doctor`.

use clap::Args;

use super::emit::{OK, emit};
use crate::error::Exit;
use crate::ops::{self, Context};

/// Options shared by everything that decides what an agent is served.
#[derive(Debug, Clone, Args)]
pub struct ServeFilterArgs {
    /// Apply the `[agent.NAME]` allow/deny patterns of skills.toml.
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
    /// Also serve skill folders skillpm did not install (never approved).
    #[arg(long)]
    pub include_unmanaged: bool,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(flatten)]
    pub filter: ServeFilterArgs,
    /// The agent's context size in characters; the skill listing gets 2% of
    /// it (default: 16,000 characters).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub context_chars: Option<u64>,
    /// Skills per `skills/list` page (MCP Skills extension; default 50).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..10_000))]
    pub page_size: Option<u64>,
}

#[derive(Debug, Args)]
pub struct MentionsArgs {
    /// The user's message (`-` reads it from stdin).
    #[arg(value_name = "TEXT")]
    pub text: String,
    #[command(flatten)]
    pub filter: ServeFilterArgs,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[command(flatten)]
    pub filter: ServeFilterArgs,
    /// Check the skill listing against 2% of this context size (default:
    /// 16,000 characters).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub context_chars: Option<u64>,
}

impl McpArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::mcp::McpServeOptions {
            agent: self.filter.agent,
            include_unmanaged: self.filter.include_unmanaged,
            context_chars: self.context_chars.map(|n| n as usize),
            page_size: self.page_size.map(|n| n as usize),
        };
        ops::mcp::serve(ctx, &opts)?;
        Ok(OK)
    }
}

impl MentionsArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::mentions::MentionsOptions {
            text: self.text,
            agent: self.filter.agent,
            include_unmanaged: self.filter.include_unmanaged,
        };
        emit(ctx, &ops::mentions::mentions(ctx, &opts)?, OK)
    }
}

impl DoctorArgs {
    pub(super) fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::doctor::DoctorOptions {
            agent: self.filter.agent,
            include_unmanaged: self.filter.include_unmanaged,
            context_chars: self.context_chars.map(|n| n as usize),
        };
        let report = ops::doctor::doctor(ctx, &opts)?;
        emit(ctx, &report, report.exit())
    }
}
