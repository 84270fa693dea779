//! Dispatch: one arm per command, each building options and calling `ops`.

use std::io::Write;

use anyhow::Context as _;

use super::{Cli, Command};
use crate::error::Exit;
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
        Command::Check(args) => {
            let opts = ops::check::CheckOptions { paths: args.paths };
            let report = ops::check::check(&ctx, &opts)?;
            emit(&ctx, &report, report.exit())
        }
        Command::List(args) => {
            let opts = ops::discover::ListOptions { all: args.all };
            emit(&ctx, &ops::discover::list(&ctx, &opts)?, Exit::Success)
        }
        Command::Show(args) => {
            let opts = ops::show::ShowOptions { name: args.name };
            emit(&ctx, &ops::show::show(&ctx, &opts)?, Exit::Success)
        }
        Command::Publish(args) => {
            let report = crate::ops::publish::publish(&ctx, &args.options())?;
            emit(&ctx, &report, Exit::Success)
        }
        Command::Keygen(args) => {
            let report = crate::ops::publish::keygen(&ctx, &args.options())?;
            emit(&ctx, &report, Exit::Success)
        }
        Command::Cache(args) => super::cache::run(&ctx, args),
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
