//! The `skillpm` binary: parse, run, map the error to its stable exit code.

use std::process::ExitCode;

use clap::Parser;
use skillpm::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match skillpm::cli::run(cli) {
        Ok(code) => ExitCode::from(code.code()),
        Err(err) => {
            let code = skillpm::cli::exit_code_of(&err);
            skillpm::cli::print_error(&err);
            ExitCode::from(code.code())
        }
    }
}
