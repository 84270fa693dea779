//! Writing a command's report: the one place that turns a report into
//! stdout (JSON or human text) and an exit code, shared by every command's
//! dispatch (so `run` and the command files need not import each other).

use anyhow::Context as _;

use crate::error::Exit;
use crate::ops::{Context, Report};

/// The exit of a command whose report carries no failure.
pub(crate) const OK: Exit = Exit::Success;

/// Prints a report as JSON or human text on stdout; returns `exit`, or
/// success when the reader closed stdout (nobody is left to tell).
pub(crate) fn emit<R: Report>(ctx: &Context, report: &R, exit: Exit) -> anyhow::Result<Exit> {
    let delivered = if ctx.ui.json {
        ctx.ui.json(report).context("cannot write to stdout")?
    } else {
        // The printer escapes what the report did not (docs/output.md).
        (ctx.ui.report(|out| report.human(out))).context("cannot write to stdout")?
    };
    Ok(if delivered { exit } else { Exit::Success })
}
