//! `skillpm doctor`: the skills on disk as agents would find them, put
//! through the checks of `crate::doctor` (any error or warning: exit 1).

use super::Context;
use super::discover::discover_quietly;
use super::mentions::catalog_options;
use crate::doctor::{DoctorReport, Inputs, examine};

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    pub agent: Option<String>,
    pub include_unmanaged: bool,
    pub context_chars: Option<usize>,
}

pub fn doctor(ctx: &Context, opts: &DoctorOptions) -> anyhow::Result<DoctorReport> {
    let options = catalog_options(opts.agent.clone(), opts.include_unmanaged)?;
    let discovery = discover_quietly(ctx)?;
    Ok(examine(Inputs {
        discovery: &discovery,
        options: &options,
        context_chars: opts.context_chars,
        claude_budget: std::env::var(crate::doctor::claude_listing::BUDGET_VAR)
            .ok()
            .and_then(|v| v.trim().parse().ok()),
        env_var_is_set: super::env_var_is_set,
        verbose: ctx.ui.verbose,
    }))
}
