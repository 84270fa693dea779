//! One function per command: glue between the library modules. Nothing here
//! parses argv (that is `cli`) and nothing here prints a report (`cli` renders
//! what these functions return); progress and prompts go through `ctx.ui`.

pub mod cache;
pub mod init;
pub mod lifecycle;
pub mod search;
pub mod source;

use std::path::PathBuf;

pub mod agents;
pub mod audit;
pub mod check;
pub mod discover;
pub mod doctor;
pub mod import;
pub mod mcp;
pub mod mentions;
pub mod publish;
pub mod show;
pub mod trust;

use crate::ui::Ui;

/// What every operation may need to know about the invocation.
#[derive(Debug, Clone)]
pub struct Context {
    /// Working directory the command runs in.
    pub cwd: PathBuf,
    /// `--project DIR`: skip the walk up to the nearest `skills.toml`.
    pub project: Option<PathBuf>,
    /// `--offline`: never open a socket.
    pub offline: bool,
    /// `--allow-http`: plain http to hosts other than this machine.
    pub allow_http: bool,
    /// `--agent ID` on `add`/`install`: the agents that get skills this run
    /// (also recorded as `[install] agents`).
    pub agents: Vec<String>,
    /// `--link-mode` on `add`/`install`.
    pub link_mode: Option<crate::agents::roots::LinkMode>,
    /// `import`: a folder another tool installed under a skill's name is
    /// left in place and reported, instead of failing the link pass.
    pub keep_foreign: bool,
    /// `-g` / `--scope admin`: work on skillpm's own manifest of that scope
    /// instead of a project's (`project::scope_project`).
    pub scope: Option<crate::project::manifest::InstallScope>,
    /// `import --replace`: such a folder is moved to a backup under the
    /// project's state in the cache and skillpm's placement takes its place.
    pub replace_foreign: bool,
    pub ui: Ui,
}

impl Context {
    pub fn new(cwd: PathBuf, ui: Ui) -> Self {
        Context {
            cwd,
            project: None,
            offline: false,
            allow_http: false,
            agents: Vec::new(),
            link_mode: None,
            keep_foreign: false,
            scope: None,
            replace_foreign: false,
            ui,
        }
    }
}

/// The project a command works on: skillpm's own manifest of the scope the
/// person chose (`-g`, `--scope admin`), else `--project DIR` or the nearest
/// folder holding skills.toml.
pub(crate) fn open_project(
    ctx: &Context,
    env: &crate::agents::roots::Env,
) -> anyhow::Result<crate::project::Project> {
    Ok(match ctx.scope {
        None => crate::project::find_project(&ctx.cwd, ctx.project.as_deref())?,
        Some(scope) => crate::project::scope_project(env.config_dir().as_deref(), scope, |dir| {
            let agents = crate::placement::initial_agents(dir, env);
            agents.into_iter().map(|a| a.as_str()).collect()
        })?,
    })
}

pub(crate) use crate::error::fail;

pub use crate::view::Report;
pub(crate) use crate::view::plural;

pub use crate::sources::candidate::env_var_is_set;
