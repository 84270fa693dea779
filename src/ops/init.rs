//! `skillpm init`: a commented skills.toml to start from.

use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use super::{Context, Report};
use crate::error::Exit;
use crate::ops::fail;
use crate::project::{self, MANIFEST_FILE, manifest::template};
use crate::roots::Agent;

/// `--json`: `{"manifest": "<path of the new skills.toml>", "agents": [ids],
/// "link_mode": "auto"}`.
#[derive(Debug, Serialize)]
pub struct InitReport {
    pub manifest: std::path::PathBuf,
    /// `[install] agents` as written.
    pub agents: Vec<String>,
    pub link_mode: &'static str,
}

impl Report for InitReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Created {}", self.manifest.display())?;
        writeln!(
            out,
            "Skills go to: {} (link-mode = \"{}\"; change both under [install])",
            self.agents.join(", "),
            self.link_mode
        )?;
        writeln!(
            out,
            "Next: skillpm source add <name> <url>, then skillpm add <skill>"
        )
    }
}

/// Writes [`template`] to `skills.toml` in `--project DIR` or the working
/// directory; never overwrites an existing one. `[install] agents` gets the
/// shared folder plus the agents detected here, or `agents` and `claude`
/// when none is (Claude Code does not read `.agents/skills`).
pub fn init(ctx: &Context) -> anyhow::Result<InitReport> {
    let dir = project::init_dir(&ctx.cwd, ctx.project.as_deref());
    let manifest = dir.join(MANIFEST_FILE);
    if manifest.exists() {
        return fail(
            Exit::Other,
            format!(
                "{} already exists; skillpm init never overwrites it (edit it, or delete it first)",
                manifest.display()
            ),
        );
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let env = crate::roots::Env::from_process();
    let mut agents = crate::ops::lifecycle::default_agents(&dir, &env);
    if agents.len() < 2 {
        agents.push(Agent::Claude);
    }
    let ids: Vec<&str> = agents.iter().map(|a| a.as_str()).collect();
    crate::fs::write_atomic(&manifest, template(&ids).as_bytes())
        .with_context(|| format!("cannot write {}", manifest.display()))?;
    Ok(InitReport {
        manifest,
        agents: ids.iter().map(|s| (*s).to_owned()).collect(),
        link_mode: "auto",
    })
}
