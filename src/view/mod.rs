//! The reports of commands as people read them, next to the printer
//! (docs/architecture.md): each command's result type, serialisable for
//! `--json` and written out by [`Report::human`]. Commands (`ops`) compute
//! the values; nothing here reads the disk or the network.

pub mod agents;
pub mod approval;
pub mod audit;
pub mod cache;
pub mod check;
pub mod discover;
pub mod doctor;
pub mod import;
pub mod init;
pub mod install;
pub mod manage;
pub mod mentions;
pub mod publish;
pub mod show;
pub mod status;
pub mod trust;

/// A command's result: serialisable for `--json` (stdout), and printable for
/// people (also stdout; warnings and progress went to stderr already).
pub trait Report: serde::Serialize {
    fn human(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
}

/// The width of a NAME column in a human report: the longest name, at
/// least the four characters of the heading.
pub fn name_width<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names.into_iter().map(str::len).max().unwrap_or(0).max(4)
}

/// The `s` of a plural noun, for a count of `n`.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
