//! Maps any failure to its stable exit code (DESIGN §11) and prints it.

use crate::error::{Classify, Exit, OpError};

/// Checks every error type of the library in order; add new modules' error
/// types here (one line each) so their exit codes reach the process.
macro_rules! classify_as {
    ($cause:expr; $($ty:ty),* $(,)?) => {
        $(
            if let Some(e) = $cause.downcast_ref::<$ty>() {
                return Some(e.exit());
            }
        )*
    };
}

fn classify(cause: &(dyn std::error::Error + 'static)) -> Option<Exit> {
    classify_as!(cause;
        OpError,
        crate::digest::DigestError,
        crate::skill::SkillError,
        crate::cache::NoCacheDir,
        crate::project::lock::LockError,
        crate::link::LinkError,
        crate::catalog::CatalogError,
        crate::git::GitError,
        crate::publish::PublishError,
        crate::unpack::UnpackError,
        crate::store::StoreError,
        crate::fetch::FetchError,
        crate::index::IndexError,
        crate::trust::TrustError,
        crate::source::SourceError,
        crate::source_mcp::McpSourceError,
        crate::project::ProjectError,
        crate::project::ManifestError,
    );
    if let Some(e) = cause.downcast_ref::<clap::Error>() {
        return Some(if e.use_stderr() {
            Exit::Usage
        } else {
            Exit::Success
        });
    }
    None
}

/// The code of the outermost classified error in the chain, or 1.
pub fn exit_code_of(err: &anyhow::Error) -> Exit {
    err.chain().find_map(classify).unwrap_or(Exit::Other)
}

/// `error: <outermost>` then each cause on its own `caused by:` line.
pub fn print_error(err: &anyhow::Error) {
    let color = std::env::var_os("NO_COLOR").is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let label = if color {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    };
    let mut chain = err.chain();
    if let Some(first) = chain.next() {
        eprintln!("{label}: {first}");
    }
    for cause in chain {
        eprintln!("  caused by: {cause}");
    }
}
