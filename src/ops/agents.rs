//! `skillpm agents`: the agents table as it applies here
//! (`placement::agents`), for the project found from the working directory.

use super::Context;
use crate::agents::{Agent, Env};
use crate::placement::agents::{AgentsReport, report};

pub fn agents(ctx: &Context) -> anyhow::Result<AgentsReport> {
    let env = Env::from_process();
    let (project, configured) = match crate::project::find_project(&ctx.cwd, ctx.project.as_deref())
    {
        Ok(p) => {
            let manifest = p.load_manifest()?;
            let configured: Option<Vec<Agent>> = manifest
                .install()
                .agents
                .as_ref()
                .map(|ids| ids.iter().filter_map(|i| Agent::parse(i)).collect());
            (p.root, configured)
        }
        Err(_) => (crate::project::find_project_root(&ctx.cwd), None),
    };
    Ok(report(&project, &env, configured))
}
