//! The `skillpm` binary: parse, run, map the error to its stable exit code.

use std::process::ExitCode;

use clap::Parser;
use skillpm::cli::Cli;

fn main() -> ExitCode {
    skillpm::cli::main(Cli::parse())
}
