//! Dispatch: one arm per command, each building options and calling `ops`.

use std::io::Write;

use anyhow::Context as _;

use super::{Cli, Command};
use crate::error::{Exit, OpError};
use crate::ops::{self, Context, Report};
use crate::ui::Ui;

pub fn run(cli: Cli) -> anyhow::Result<Exit> {
    let g = &cli.global;
    let ui = Ui::detect(g.quiet, g.json, g.color);
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    let mut ctx = Context::new(cwd, ui);
    ctx.project = g.project.clone();
    ctx.offline = g.offline;

    match cli.command {
        Command::Check(_) | Command::List(_) | Command::Show(_) => {
            Err(OpError::new(Exit::Other, "this command is not built yet").into())
        }
        Command::Init(_) => emit(&ctx, &ops::init::init(&ctx)?, Exit::Success),
        Command::Source(args) => super::source::run_source(&ctx, args),
        Command::Search(args) => {
            let opts = ops::search::SearchOptions {
                query: args.query,
                source: args.source,
            };
            let report = ops::search::search(&ctx, &opts)?;
            emit(&ctx, &report, report.exit())
        }
    }
}

/// Prints a report as JSON or human text on stdout; returns `exit`.
pub(crate) fn emit<R: Report>(ctx: &Context, report: &R, exit: Exit) -> anyhow::Result<Exit> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if ctx.ui.json {
        serde_json::to_writer_pretty(&mut out, report).context("cannot encode JSON output")?;
        writeln!(out)?;
    } else if !ctx.ui.quiet {
        report.human(&mut out)?;
    }
    out.flush()?;
    Ok(exit)
}
