//! `skillpm mentions <TEXT>`: the skills a user message names explicitly
//! (`$name`, `[$name](path)`), by the rules in [`crate::mentions`].

use std::io::Write;

use anyhow::Context as _;
use serde::Serialize;

use super::discover::discover_here;
use super::{Context, Report};
use crate::catalog::{Catalog, CatalogOptions, HashCache, Policy};
use crate::error::{Exit, OpError};
use crate::mentions::{self, Mention, Skipped};
use crate::roots::Discovery;

#[derive(Debug, Clone, Default)]
pub struct MentionsOptions {
    /// The message; `-` means stdin.
    pub text: String,
    pub agent: Option<String>,
    pub include_unmanaged: bool,
}

/// The `mentions` report.
///
/// JSON shape (stable):
/// ```json
/// {"mentions": [{"name": "pdf", "path": "/work/app/.agents/skills/pdf", "scope": "repo",
///                "how": "name", "offset": 4}],
///  "skipped": [{"token": "$demo", "offset": 20, "reason": "2 different skills are named …"}]}
/// ```
/// `how` is `link` for `[$name](path)` and `name` for `$name`; `offset` is
/// the byte offset of the first mention. `skipped` lists mentions of known
/// skills or links that selected nothing, with the reason.
#[derive(Debug, Clone, Serialize)]
pub struct MentionsReport {
    pub mentions: Vec<Mention>,
    pub skipped: Vec<Skipped>,
}

pub fn mentions(ctx: &Context, opts: &MentionsOptions) -> anyhow::Result<MentionsReport> {
    let text = if opts.text == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read the message from stdin")?
    } else {
        opts.text.clone()
    };
    let options = catalog_options(opts.agent.clone(), opts.include_unmanaged)?;
    let (_, catalog) = build_catalog(ctx, &options)?;
    let scan = mentions::scan(&text, &catalog);
    Ok(MentionsReport {
        mentions: scan.mentions,
        skipped: scan.skipped,
    })
}

/// The catalog options of `--agent` (which must be a plausible
/// `[agent.<name>]` key) and `--include-unmanaged`.
pub(crate) fn catalog_options(
    agent: Option<String>,
    include_unmanaged: bool,
) -> Result<CatalogOptions, OpError> {
    if let Some(a) = &agent
        && (a.is_empty()
            || !a
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'))
    {
        return Err(OpError::new(
            Exit::Usage,
            format!(
                "--agent {a:?}: agent names are lower-case letters, digits, `-` and `_`, as in the [agent.<name>] tables of skills.toml"
            ),
        ));
    }
    Ok(CatalogOptions {
        agent,
        include_unmanaged,
    })
}

/// Discovery and the catalog judged from it, as this invocation sees them.
pub(crate) fn build_catalog(
    ctx: &Context,
    options: &CatalogOptions,
) -> anyhow::Result<(Discovery, Catalog)> {
    let discovery = discover_here(ctx)?;
    let policy = Policy::load(&discovery.project)?;
    let catalog = Catalog::build(&discovery, &policy, options, &mut HashCache::new());
    Ok((discovery, catalog))
}

impl Report for MentionsReport {
    fn human(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.mentions.is_empty() {
            writeln!(out, "no skills mentioned")?;
        }
        let width = self
            .mentions
            .iter()
            .map(|m| m.name.len())
            .max()
            .unwrap_or(0);
        for m in &self.mentions {
            writeln!(
                out,
                "{:<width$}  {:<6}  {}",
                m.name,
                m.scope.as_str(),
                m.path.display()
            )?;
        }
        for s in &self.skipped {
            writeln!(out, "skipped {}: {}", s.token, s.reason)?;
        }
        Ok(())
    }
}
