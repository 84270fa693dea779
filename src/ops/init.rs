//! `skillpm init`: a commented skills.toml to start from.

use anyhow::Context as _;

use super::Context;
use crate::error::Exit;
use crate::ops::fail;
use crate::project::{self, MANIFEST_FILE, manifest::template};
pub use crate::view::init::InitReport;

/// Writes [`template`] to `skills.toml` in `--project DIR` or the working
/// directory; never overwrites an existing one. `[install] agents` gets
/// `placement::initial_agents` (the shared folder plus the agents detected
/// here, or `agents` and `claude` when none is).
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
    let env = crate::agents::roots::Env::from_process();
    let agents = crate::placement::initial_agents(&dir, &env);
    let ids: Vec<&str> = agents.iter().map(|a| a.as_str()).collect();
    crate::fs::write_atomic(&manifest, template(&ids).as_bytes())
        .with_context(|| format!("cannot write {}", manifest.display()))?;
    Ok(InitReport {
        manifest,
        agents: ids.iter().map(|s| (*s).to_owned()).collect(),
        link_mode: "auto",
    })
}
