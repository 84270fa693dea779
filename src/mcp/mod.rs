//! `skillpm mcp`: an MCP server on stdio that serves the skills in the
//! [catalog](crate::catalog) to any agent.
//!
//! Two tools:
//! - `skill {name, arguments?}`: its description lists the skills the model
//!   may pick (`<available_skills>…`, held to a budget); the result is the
//!   same envelope `skillpm show` prints, with arguments substituted the way
//!   Claude Code does. Shell preprocessing lines are returned as written,
//!   never run.
//! - `skills_list`: every skill the model may load, as JSON (name,
//!   description, scope, path, tree digest, signer), including the ones the
//!   description had no room for.
//!
//! And the MCP Skills extension (`io.modelcontextprotocol/skills`, see
//! [`skills_ext`]): `skills/list`, `skills/get`, `resources/read` of
//! `skill://` URIs (verified against the approved tree before sending),
//! `resources/directory/read` and `resources/list`, under the same rules.
//!
//! The catalog is rebuilt on every request (discovery is a bounded walk;
//! tree hashes are cached by file metadata), so a skill installed, removed
//! or edited on disk is seen without a restart; a background poll also
//! tells the client `notifications/tools/list_changed` when the listing
//! changes, and `notifications/resources/list_changed` when the served
//! skills (URIs, tree digests) do.

pub mod arguments;
pub mod clients;
pub mod listing;
mod server;
pub mod skills_ext;

use std::path::PathBuf;
use std::time::Duration;

use crate::agents::roots::Env;
use crate::catalog::CatalogOptions;

pub use server::SkillServer;

/// Names of the tools the server offers.
pub const SKILL_TOOL: &str = "skill";
pub const LIST_TOOL: &str = "skills_list";

/// How often the server looks for changed skills to notify the client.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(2);

/// Everything the server needs to know; built by `ops::mcp`.
#[derive(Debug, Clone)]
pub struct McpOptions {
    pub project: PathBuf,
    pub cwd: PathBuf,
    pub env: Env,
    pub catalog: CatalogOptions,
    /// Characters the `<available_skills>` block may use.
    pub budget: usize,
    /// `None`: no background polling (changes are still seen on each request).
    pub poll_interval: Option<Duration>,
    /// Entries a `skills/list` page holds.
    pub page_size: usize,
    /// Where notes for the person running the server go: stdout belongs to
    /// the protocol, and the caller's printer owns stderr (`--quiet`).
    pub notes: Notes,
}

/// A sink for the server's human notes, given by the caller.
#[derive(Clone)]
pub struct Notes(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notes")
    }
}

/// Serves MCP on this process's stdin/stdout until the client disconnects.
pub async fn serve_stdio(options: McpOptions) -> anyhow::Result<()> {
    use rmcp::ServiceExt as _;
    let running = SkillServer::new(options)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| anyhow::anyhow!("the MCP handshake failed: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| anyhow::anyhow!("the MCP server stopped unexpectedly: {e}"))?;
    Ok(())
}
