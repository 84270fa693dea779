//! `skillpm mcp`: check the project's policy files, then serve skills over
//! MCP on stdio until the client disconnects. Nothing but protocol
//! messages is written to stdout; notes go to stderr.

use anyhow::Context as _;

use super::discover::project_dir;
use super::{Context, mentions::catalog_options};
use crate::agents::roots::Env;
use crate::catalog::ServingRules;
use crate::mcp::{self, McpOptions, listing};

#[derive(Debug, Clone, Default)]
pub struct McpServeOptions {
    pub agent: Option<String>,
    pub include_unmanaged: bool,
    pub context_chars: Option<usize>,
    /// Entries a `skills/list` page holds (`None`: the default).
    pub page_size: Option<usize>,
}

/// Runs the server. Errors: `--project` is not a folder or `--agent` is not
/// a name (exit 2); `skills.toml` or `skills.lock` cannot be read (their
/// own codes), all before the first message is read.
pub fn serve(ctx: &Context, opts: &McpServeOptions) -> anyhow::Result<()> {
    let project = project_dir(ctx)?;
    let catalog = catalog_options(opts.agent.clone(), opts.include_unmanaged)?;
    // Fail before the client connects rather than on every call.
    let policy = ServingRules::load(&project).context("cannot start the MCP server")?;
    if let Some(agent) = &opts.agent
        && policy.settings.rules_for(agent).is_none()
    {
        ctx.ui.info(format!(
            "skillpm mcp: skills.toml has no [agent.{agent}] table; every served skill is offered to `{agent}`"
        ));
    }
    let options = McpOptions {
        project,
        cwd: ctx.cwd.clone(),
        env: Env::from_process(),
        catalog,
        budget: listing::budget_for(opts.context_chars),
        poll_interval: Some(mcp::DEFAULT_POLL_INTERVAL),
        page_size: opts.page_size.unwrap_or(mcp::skills_ext::DEFAULT_PAGE_SIZE),
        notes: {
            let ui = ctx.ui.clone();
            mcp::Notes(std::sync::Arc::new(move |note| ui.info(note)))
        },
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(mcp::serve_stdio(options))
}
