//! Maps any failure to its stable exit code (DESIGN §11).

use crate::error::{Exit, exit_of_cause};

/// The code of the outermost classified error in the chain, or 1. Library
/// errors register their own codes (src/error.rs `classified!`); only clap's
/// error, which the cli layer alone knows, is mapped here.
pub fn exit_code_of(err: &anyhow::Error) -> Exit {
    err.chain()
        .find_map(|cause| {
            exit_of_cause(cause).or_else(|| {
                cause.downcast_ref::<clap::Error>().map(|e| {
                    if e.use_stderr() {
                        Exit::Usage
                    } else {
                        Exit::Success
                    }
                })
            })
        })
        .unwrap_or(Exit::Other)
}
