//! `skillpm init`: a commented skills.toml to start from.

use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use super::{Context, Report};
use crate::error::Exit;
use crate::ops::fail;
use crate::project::{self, MANIFEST_FILE, manifest::TEMPLATE};

/// `--json`: `{"manifest": "<path of the new skills.toml>"}`.
#[derive(Debug, Serialize)]
pub struct InitReport {
    pub manifest: std::path::PathBuf,
}

impl Report for InitReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "Created {}", self.manifest.display())?;
        writeln!(
            out,
            "Next: skillpm source add <name> <url>, then skillpm add <skill>"
        )
    }
}

/// Writes [`TEMPLATE`] to `skills.toml` in `--project DIR` or the working
/// directory; never overwrites an existing one.
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
    crate::fs::write_atomic(&manifest, TEMPLATE.as_bytes())
        .with_context(|| format!("cannot write {}", manifest.display()))?;
    Ok(InitReport { manifest })
}
