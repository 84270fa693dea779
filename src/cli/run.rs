//! Dispatch: one arm per command, each building options and calling `ops`.

use std::io::Write;

use anyhow::Context as _;

use super::{Cli, Command};
use crate::error::Exit;
use crate::ops::{self, Context, Report, lifecycle};
use crate::ui::Ui;

/// Runs one parsed command line to its exit code; errors are printed by the
/// same printer as everything else, so `--color` and `--quiet` apply to them.
pub fn main(cli: Cli) -> std::process::ExitCode {
    let g = &cli.global;
    let ui = Ui::detect(g.quiet, g.json, g.color.forced());
    let code = match run(cli, ui.clone()) {
        Ok(code) => code,
        Err(err) => {
            ui.error(&err);
            super::exit_code_of(&err)
        }
    };
    std::process::ExitCode::from(code.code())
}

pub fn run(cli: Cli, ui: Ui) -> anyhow::Result<Exit> {
    let g = &cli.global;
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
            let in_project = crate::project::find_project(&ctx.cwd, ctx.project.as_deref()).is_ok();
            if args.all || !in_project {
                emit(&ctx, &ops::discover::list(&ctx)?, Exit::Success)
            } else {
                emit(&ctx, &lifecycle::list(&ctx)?, Exit::Success)
            }
        }
        Command::Add(a) => {
            ctx.link_mode = a.placement.link_mode();
            ctx.agents = a.placement.agents;
            let opts = lifecycle::AddOptions {
                source: a.source,
                names: a.names,
                all: a.all,
                yes: a.yes,
                git_ref: a.git_ref,
                path: a.path,
                strict: a.strict,
                list: a.list,
            };
            emit(&ctx, &lifecycle::add(&ctx, &opts)?, Exit::Success)
        }
        Command::Install(a) => {
            ctx.agents = a.placement.agents.clone();
            ctx.link_mode = a.placement.link_mode();
            let opts = lifecycle::InstallOptions {
                mode: a.mode(),
                yes: a.yes,
                strict: a.strict,
            };
            emit(&ctx, &lifecycle::install(&ctx, &opts)?, Exit::Success)
        }
        Command::Update(a) => {
            let opts = lifecycle::UpdateOptions {
                names: a.names,
                yes: a.yes,
                strict: a.strict,
            };
            emit(&ctx, &lifecycle::update(&ctx, &opts)?, Exit::Success)
        }
        Command::Outdated => emit(&ctx, &lifecycle::outdated(&ctx)?, Exit::Success),
        Command::Remove(a) => emit(&ctx, &lifecycle::remove(&ctx, &a.names)?, Exit::Success),
        Command::Approve(a) => {
            let opts = lifecycle::ApproveOptions {
                names: a.names,
                yes: a.yes,
            };
            emit(&ctx, &lifecycle::approve(&ctx, &opts)?, Exit::Success)
        }
        Command::Disable(a) => emit(&ctx, &lifecycle::disable(&ctx, &a.names)?, Exit::Success),
        Command::Enable(a) => emit(&ctx, &lifecycle::enable(&ctx, &a.names)?, Exit::Success),
        Command::Verify(a) if a.provenance => {
            let report = lifecycle::verify_provenance(&ctx)?;
            emit(&ctx, &report, report.exit())
        }
        Command::Verify(_) => {
            let report = lifecycle::verify(&ctx)?;
            emit(&ctx, &report, report.exit())
        }
        Command::Show(args) => {
            let opts = ops::show::ShowOptions {
                name: args.name,
                path: args.path,
            };
            emit(&ctx, &ops::show::show(&ctx, &opts)?, Exit::Success)
        }
        Command::Mcp(args) => {
            let opts = ops::mcp::McpServeOptions {
                agent: args.filter.agent,
                include_unmanaged: args.filter.include_unmanaged,
                context_chars: args.context_chars.map(|n| n as usize),
                page_size: args.page_size.map(|n| n as usize),
            };
            ops::mcp::serve(&ctx, &opts)?;
            Ok(Exit::Success)
        }
        Command::Mentions(args) => {
            let opts = ops::mentions::MentionsOptions {
                text: args.text,
                agent: args.filter.agent,
                include_unmanaged: args.filter.include_unmanaged,
            };
            emit(&ctx, &ops::mentions::mentions(&ctx, &opts)?, Exit::Success)
        }
        Command::Doctor(args) => {
            let opts = ops::doctor::DoctorOptions {
                agent: args.filter.agent,
                include_unmanaged: args.filter.include_unmanaged,
                context_chars: args.context_chars.map(|n| n as usize),
            };
            let report = ops::doctor::doctor(&ctx, &opts)?;
            emit(&ctx, &report, report.exit())
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
        Command::Agents => emit(&ctx, &ops::agents::agents(&ctx)?, Exit::Success),
        Command::Import(args) => {
            let opts = ops::import::ImportOptions {
                dry_run: args.dry_run,
                yes: args.yes,
                exit_of: super::exit_code_of,
            };
            let report = ops::import::import(&ctx, &opts)?;
            emit(&ctx, &report, report.exit())
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

/// Prints a report as JSON or human text on stdout; returns `exit`, or
/// success when the reader closed stdout (nobody is left to tell).
pub(crate) fn emit<R: Report>(ctx: &Context, report: &R, exit: Exit) -> anyhow::Result<Exit> {
    let mut out = Vec::new();
    if ctx.ui.json {
        serde_json::to_writer_pretty(&mut out, report).context("cannot encode JSON output")?;
        writeln!(out)?;
    } else if !ctx.ui.quiet {
        report.human(&mut out)?;
    }
    let delivered = ctx.ui.data(&out).context("cannot write to stdout")?;
    Ok(if delivered { exit } else { Exit::Success })
}
