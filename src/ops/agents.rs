//! `skillpm agents`: the agents table as it applies here
//! (`placement::agents`), for the project found from the working directory,
//! or skillpm's own manifest of the scope `-g` / `--scope admin` chose.

use super::Context;
use crate::agents::{Agent, Env};
use crate::placement::agents::{AgentsReport, report};

pub fn agents(ctx: &Context) -> anyhow::Result<AgentsReport> {
    let env = Env::from_process();
    let found = match ctx.scope {
        Some(_) => Some(super::open_project(ctx, &env)?),
        None => crate::project::find_project(&ctx.cwd, ctx.project.as_deref()).ok(),
    };
    let (project, configured) = match found {
        Some(p) => {
            let manifest = p.load_manifest()?;
            let configured: Option<Vec<Agent>> = manifest
                .install()
                .agents
                .as_ref()
                .map(|ids| ids.iter().filter_map(|i| Agent::parse(i)).collect());
            (p.root, configured)
        }
        None => (crate::project::find_project_root(&ctx.cwd), None),
    };
    Ok(report(&project, &env, configured))
}
