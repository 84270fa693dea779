//! `skillpm mentions <TEXT>`: the skills a user message names explicitly
//! (`$name`, `[$name](path)`), by the rules in [`crate::catalog::mentions`].

use anyhow::Context as _;

use super::Context;
use super::discover::discover_here;
use crate::agents::roots::Discovery;
use crate::catalog::mentions;
use crate::catalog::{Catalog, CatalogOptions, HashCache, ServingRules};
use crate::error::{Exit, OpError};
use crate::view::mentions::MentionsReport;

#[derive(Debug, Clone, Default)]
pub struct MentionsOptions {
    /// The message; `-` means stdin.
    pub text: String,
    pub agent: Option<String>,
    pub include_unmanaged: bool,
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
    let policy = ServingRules::load(&discovery.project)?;
    let catalog = Catalog::build(&discovery, &policy, options, &mut HashCache::new());
    Ok((discovery, catalog))
}
