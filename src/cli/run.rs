//! Dispatch: one arm per command, each building options and calling `ops`.

use anyhow::Context as _;

use super::{
    AuditArgs, CheckArgs, Cli, Command, ImportArgs, ListArgs, SandboxInitArgs, ShowArgs, VerifyArgs,
};
use crate::error::Exit;
use crate::ops::{self, Context, lifecycle};
use crate::printer::Printer;

use super::emit::{OK, emit};

/// Runs one parsed command line to its exit code; errors are printed by the
/// same printer as everything else, so `--color` and `--quiet` apply to them.
pub fn main(cli: Cli) -> std::process::ExitCode {
    let g = &cli.global;
    let mut ui = Printer::detect(g.quiet, g.json, g.color.forced());
    ui.verbose = g.verbose;
    // `install --frozen` works offline without `--offline` being passed,
    // and `--locked/--frozen` in a message is the one the user typed:
    // messages name the flag the user passed.
    if let Command::Install(a) = &cli.command {
        if a.frozen {
            ui.flag_words.push(("--locked/--frozen", "--frozen"));
            if !g.offline {
                ui.flag_words.push(("--offline", "--frozen"));
            }
        } else if a.locked {
            ui.flag_words.push(("--locked/--frozen", "--locked"));
        }
    }
    let code = match run(cli, ui.clone()) {
        Ok(code) => code,
        Err(err) => {
            let exit = crate::error::exit_code_of(&err);
            ui.error(&err, exit);
            exit
        }
    };
    // A record key made by this run, and every file flushed behind
    // (`fs::write_flushed_behind`), are durable before the process ends.
    crate::trust::RecordKey::settle();
    crate::fs::settle_behind();
    std::process::ExitCode::from(code.code())
}

pub fn run(cli: Cli, ui: Printer) -> anyhow::Result<Exit> {
    let g = &cli.global;
    // A malformed CI record key fails every command loudly, rather than
    // making every record read as absent.
    crate::trust::RecordKey::check_env()?;
    let cwd = std::env::current_dir().context("cannot read the working directory")?;
    // skillpm's config and state folders are the user's own: a project's
    // `.env` or CI job cannot move them into the project, where it would
    // write which secret goes where and the key records are believed by.
    crate::project::user_folders::refuse_inside_project(&cwd, g.project.as_deref())?;
    let mut ctx = Context::new(cwd, ui);
    ctx.project = g.project.clone();
    ctx.offline = g.offline;
    ctx.scope = g.chosen_scope();
    ctx.allow_http = g.allow_http;

    match cli.command {
        Command::Check(a) => a.run(&ctx),
        Command::Audit(a) => a.run(&ctx),
        Command::SandboxInit(a) => a.run(&ctx),
        Command::List(a) => a.run(&ctx),
        Command::Show(a) => a.run(&ctx),
        Command::Mcp(a) => a.run(&ctx),
        Command::Mentions(a) => a.run(&ctx),
        Command::Doctor(a) => a.run(&ctx),
        Command::Publish(a) => match a.oci_options() {
            Some(opts) => emit(&ctx, &ops::publish::publish_oci(&ctx, &opts)?, OK),
            None => emit(&ctx, &ops::publish::publish(&ctx, &a.options())?, OK),
        },
        Command::Keygen(a) => emit(&ctx, &ops::publish::keygen(&ctx, &a.options())?, OK),
        Command::Trust(super::TrustCommand::Update { file, mirror }) => {
            let report = match file {
                Some(file) => ops::trust::update(&ctx, &file)?,
                None => ops::trust::update_from_tuf(&ctx, mirror.as_deref())?,
            };
            emit(&ctx, &report, OK)
        }
        Command::Cache(a) => super::cache::run(&ctx, a),
        Command::Init(_) => emit(&ctx, &ops::init::init(&ctx)?, OK),
        Command::Source(a) => super::source::run_source(&ctx, a),
        Command::Search(a) => a.run(&ctx),
        Command::Add(a) => a.run(ctx),
        Command::Install(a) => a.run(ctx),
        Command::Update(a) => a.run(&ctx),
        Command::Outdated => emit(&ctx, &lifecycle::outdated(&ctx)?, OK),
        Command::Remove(a) => emit(&ctx, &lifecycle::remove(&ctx, &a.names)?, OK),
        Command::Approve(a) => a.run(&ctx),
        Command::Disable(a) => emit(&ctx, &lifecycle::disable(&ctx, &a.names)?, OK),
        Command::Enable(a) => emit(&ctx, &lifecycle::enable(&ctx, &a.names)?, OK),
        Command::Verify(a) => a.run(&ctx),
        Command::Agents => emit(&ctx, &ops::agents::agents(&ctx)?, OK),
        Command::Import(a) => a.run(&ctx),
        Command::Policy(a) => match a.command {
            super::PolicyCommand::Check => {
                let report = lifecycle::policy_check(&ctx)?;
                emit(&ctx, &report, report.exit())
            }
        },
    }
}

impl CheckArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::check::CheckOptions {
            paths: self.paths,
            strict: self.strict,
        };
        let report = ops::check::check(ctx, &opts)?;
        emit(ctx, &report, report.exit())
    }
}

impl AuditArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let to_stdout = self.sarif.as_deref() == Some(std::path::Path::new("-"));
        let opts = ops::audit::AuditOptions {
            paths: self.paths,
            sarif: self.sarif,
            fail_on: self.fail_on,
            run: self.run,
            no_cache: self.no_cache,
        };
        let report = ops::audit::audit(ctx, &opts)?;
        if to_stdout {
            return Ok(report.exit());
        }
        emit(ctx, &report, report.exit())
    }
}

impl SandboxInitArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let report = ops::audit::sandbox_init(&self.spec)?;
        ctx.ui.json(&report)?;
        Ok(Exit::Success)
    }
}

impl ListArgs {
    /// The project's skills, or every skill the agents can see when asked or
    /// when there is no project.
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let in_project = ctx.scope.is_some()
            || crate::project::find_project(&ctx.cwd, ctx.project.as_deref()).is_ok();
        if self.all || !in_project {
            emit(ctx, &ops::discover::list(ctx)?, OK)
        } else {
            emit(ctx, &lifecycle::list(ctx)?, OK)
        }
    }
}

impl ShowArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::show::ShowOptions {
            name: self.name,
            path: self.path,
        };
        emit(ctx, &ops::show::show(ctx, &opts)?, OK)
    }
}

impl VerifyArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        if self.provenance {
            let report = lifecycle::verify_provenance(ctx)?;
            emit(ctx, &report, report.exit())
        } else {
            let report = lifecycle::verify(ctx)?;
            emit(ctx, &report, report.exit())
        }
    }
}

impl ImportArgs {
    fn run(self, ctx: &Context) -> anyhow::Result<Exit> {
        let opts = ops::import::ImportOptions {
            dry_run: self.dry_run,
            yes: self.yes,
            replace: self.replace,
            accept_findings: self.accept.accept_findings,
        };
        let report = ops::import::import(ctx, &opts)?;
        emit(ctx, &report, report.exit())
    }
}
